import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadFixtures } from '../../domain/fixtures/load-fixtures.ts';
import { parseAppsFile, vouchedAppsFile } from './apps-file.ts';
import { appsFileSchemaOf } from './apps-file-schema.ts';

const schema = appsFileSchemaOf(z);
const KEY = 'kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6';

/** A field's value: mostly what the schema takes, often something near it that it does not. */
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(0, -0, 1, 5, 18, 19, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, 60_000),
  fc.constantFrom('', 'x', KEY, 'not a key!', 'Custom', 'SolanaDevnet', 'Other', 'https://example.com/hook', 'not a url'),
  fc.constant([]),
  fc.constant(['a', 'b']),
  fc.constant([1]),
  fc.constant({}),
);
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: anything });
const fields = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, { requiredKeys: [] });

const mint = fields({
  publicKey: maybe(fc.constant(KEY)),
  addMemo: maybe(fc.boolean()),
  airdrop: maybe(fc.boolean()),
  airdropAmount: maybe(fc.nat()),
  airdropMax: maybe(fc.nat()),
  decimals: maybe(fc.integer({ min: 0, max: 18 })),
  feePayer: maybe(fc.constant(KEY)),
  feePayerSecretKey: maybe(fc.string()),
  logoUrl: maybe(fc.string()),
  name: maybe(fc.string()),
  programId: maybe(fc.constant(KEY)),
  symbol: maybe(fc.string()),
  extra: anything,
});
const app = fields({
  environment: maybe(fc.string({ minLength: 1 })),
  index: maybe(fc.nat()),
  name: maybe(fc.string({ minLength: 1 })),
  explorer: maybe(fc.string()),
  cluster: maybe(
    fields({ id: maybe(fc.string()), name: maybe(fc.string()), type: maybe(fc.constantFrom('Custom', 'SolanaMainnet')), endpoint: maybe(fc.string()) }),
  ),
  mints: maybe(fc.array(mint, { minLength: 1, maxLength: 3 })),
  webhooks: maybe(fields({ verify: maybe(fc.constant('https://example.com/verify')), event: anything })),
  ipsAllowed: maybe(fc.array(fc.string(), { maxLength: 2 })),
  ipsBlocked: maybe(fc.array(fc.string(), { maxLength: 2 })),
  uasAllowed: maybe(fc.array(fc.string(), { maxLength: 2 })),
  uasBlocked: maybe(fc.array(fc.string(), { maxLength: 2 })),
  commitmentTimeoutMs: maybe(fc.integer({ min: 1 })),
  other: anything,
});

describe('the apps file, checked without zod where that is sure', () => {
  it('vouches only for files zod accepts, filled exactly as zod fills them', () => {
    const seen = { vouched: 0, refusedByZod: 0 };
    fc.assert(
      fc.property(fc.array(app, { maxLength: 3 }), (file) => {
        const byZod = schema.safeParse(file);
        const vouched = vouchedAppsFile(file);
        if (!byZod.success) seen.refusedByZod += 1;
        if (vouched === undefined) return;
        seen.vouched += 1;
        expect(byZod.success).toBe(true);
        expect(vouched).toStrictEqual(byZod.data);
        // The same keys in the same order, so the two serialize alike.
        expect(JSON.stringify(vouched)).toBe(JSON.stringify(byZod.data));
      }),
      { numRuns: 3000, seed: 46 },
    );
    // The generator reaches both outcomes, or the property above says nothing.
    expect(seen.vouched).toBeGreaterThan(100);
    expect(seen.refusedByZod).toBeGreaterThan(100);
  });

  it('fills a mint with every field in the order zod fills it', () => {
    const mint = { symbol: 'S', programId: KEY, name: 'N', logoUrl: 'l', feePayerSecretKey: 's', feePayer: KEY, decimals: 2, publicKey: KEY };
    const file = [{ environment: 'e', index: 1, name: 'n', mints: [mint, { publicKey: KEY, decimals: 2 }] }];
    expect(JSON.stringify(vouchedAppsFile(file))).toBe(JSON.stringify(schema.parse(file)));
  });

  it('vouches for the bundled fixtures/apps.json, so a default emulator starts without zod', () => {
    const file = loadFixtures().extra.apps;
    expect(vouchedAppsFile(file)).toStrictEqual(schema.parse(file));
  });

  it('leaves webhook URLs to zod, which takes a URL and refuses what is not one, with its message', () => {
    const base = { environment: 'e', index: 1, name: 'n', mints: [{ publicKey: KEY }] };
    const withHook = [{ ...base, webhooks: { verify: 'https://example.com/verify' } }];
    expect(vouchedAppsFile(withHook)).toBeUndefined();
    expect(parseAppsFile(withHook)[0]!.webhooks).toEqual({ verify: 'https://example.com/verify' });
    expect(() => parseAppsFile([{ ...base, webhooks: { verify: 'not a url' } }])).toThrow(
      /fixtures apps\.json is invalid: .*\n?.*→ at \[0\]\.webhooks\.verify/,
    );
    expect(() => parseAppsFile({ apps: [] })).toThrow(/fixtures apps\.json is invalid: ✖ Invalid input: expected array, received object/);
  });

  it('reads lists by index as zod does, not by their own iterator, and leaves a throwing trap to zod', () => {
    const base = { environment: 'e', index: 1, name: 'n', mints: [{ publicKey: KEY, decimals: 0 }] };
    const file: unknown[] = [{ bad: true }];
    Object.defineProperty(file, Symbol.iterator, { value: Array.prototype.values.bind([base]) });
    expect(vouchedAppsFile(file)).toBeUndefined();
    expect(() => parseAppsFile(file)).toThrow(/^fixtures apps\.json is invalid/);
    const mints: unknown[] = [{ publicKey: 'not a key' }];
    Object.defineProperty(mints, Symbol.iterator, { value: Array.prototype.values.bind([]) });
    expect(vouchedAppsFile([{ ...base, mints }])).toBeUndefined();
    expect(() => parseAppsFile([{ ...base, mints }])).toThrow(/must be a base58 public key/);
    // A Proxy whose prototype trap throws: zod never asks for the prototype and takes the app.
    const proxied = new Proxy(base, {
      getPrototypeOf() {
        throw new Error('trap');
      },
    });
    expect(parseAppsFile([proxied])).toStrictEqual(schema.parse([base]));
  });
});
