import { InternalError } from '../../base/errors/internal-error.ts';
import { once, zod } from '../../base/lazy-zod.ts';
import { TOKEN_PROGRAM_ID } from '../../domain/ledger/spl-token.ts';
import { appsFileSchemaOf, BASE58_KEY, CLUSTER_TYPES, DEFAULT_COMMITMENT_TIMEOUT_MS, DEFAULT_EXPLORER, type ParsedAppsFile } from './apps-file-schema.ts';

/**
 * fixtures/apps.json, checked. The schema is zod's (apps-file-schema.ts), and zod is ~75 ms of a
 * 520 ms cold start on Node 20 (issue 46): every emulator parses its apps file at start, so a fast
 * check vouches for the files it is sure of and zod is loaded only for the rest. The fast check only
 * ever accepts: anything it is not sure zod accepts, exactly as it would fill it (a key present as
 * `undefined`, webhook URLs, a number past 2^53, an object with a prototype), goes to zod, which then
 * accepts or refuses with its own message. apps-file.test.ts holds the two to the same output on
 * generated files.
 */
export function parseAppsFile(input: unknown): ParsedAppsFile {
  const vouched = vouchedAppsFile(input);
  if (vouched !== undefined) return vouched;
  const parsed = appsFileSchema().safeParse(input);
  if (!parsed.success) throw new InternalError('FIXTURES_INVALID', { problem: `fixtures apps.json is invalid: ${zod().prettifyError(parsed.error)}` });
  return parsed.data;
}

const appsFileSchema = once(() => appsFileSchemaOf(zod()));

/** The fast check alone: the file as zod would give it back, or undefined where zod must decide. */
export function vouchedAppsFile(input: unknown): ParsedAppsFile | undefined {
  if (!Array.isArray(input)) return undefined;
  try {
    return each(input, app);
  } catch {
    // DECLINE, or a getter or Proxy trap that threw: zod reads the file again and decides (it may
    // throw the same error, as it did before there was a fast check).
    return undefined;
  }
}

const DECLINE = Symbol('zod decides');
type Fields = Record<string, unknown>;

function app(value: unknown): ParsedAppsFile[number] {
  const fields = plainObject(value);
  const mints = fields.mints;
  if (!Array.isArray(mints) || mints.length === 0) throw DECLINE;
  return {
    environment: text(fields.environment, 1),
    index: integer(fields.index, 0),
    name: text(fields.name, 1),
    explorer: orDefault(fields, 'explorer', DEFAULT_EXPLORER, (explorer) => text(explorer)),
    cluster: cluster(fields),
    mints: each(mints, mint),
    webhooks: webhooks(fields),
    ipsAllowed: texts(fields, 'ipsAllowed'),
    ipsBlocked: texts(fields, 'ipsBlocked'),
    uasAllowed: texts(fields, 'uasAllowed'),
    uasBlocked: texts(fields, 'uasBlocked'),
    commitmentTimeoutMs: orDefault(fields, 'commitmentTimeoutMs', DEFAULT_COMMITMENT_TIMEOUT_MS, (ms) => integer(ms, 1)),
  };
}

function mint(value: unknown): ParsedAppsFile[number]['mints'][number] {
  const fields = plainObject(value);
  // Filled in the schema's order of keys, as zod fills them.
  const parsed = {
    publicKey: key(fields.publicKey),
    addMemo: orDefault(fields, 'addMemo', false, flag),
    airdrop: orDefault(fields, 'airdrop', false, flag),
    airdropAmount: orDefault(fields, 'airdropAmount', 0, (amount) => integer(amount, 0)),
    airdropMax: orDefault(fields, 'airdropMax', 0, (amount) => integer(amount, 0)),
  } as ParsedAppsFile[number]['mints'][number];
  if (present(fields, 'decimals')) parsed.decimals = integer(fields.decimals, 0, 18);
  if (present(fields, 'feePayer')) parsed.feePayer = key(fields.feePayer);
  for (const name of ['feePayerSecretKey', 'logoUrl', 'name'] as const) if (present(fields, name)) parsed[name] = text(fields[name]);
  parsed.programId = orDefault(fields, 'programId', TOKEN_PROGRAM_ID.toBase58(), key);
  if (present(fields, 'symbol')) parsed.symbol = text(fields.symbol);
  return parsed;
}

function cluster(app: Fields): ParsedAppsFile[number]['cluster'] {
  const fields = present(app, 'cluster') ? plainObject(app.cluster) : {};
  const type = orDefault(fields, 'type', 'Custom', (name) => {
    if (!CLUSTER_TYPES.includes(name as (typeof CLUSTER_TYPES)[number])) throw DECLINE;
    return name as (typeof CLUSTER_TYPES)[number];
  });
  const parsed: ParsedAppsFile[number]['cluster'] = {
    id: orDefault(fields, 'id', 'emulator', (id) => text(id)),
    name: orDefault(fields, 'name', 'Relay Emulator', (name) => text(name)),
    type,
  };
  if (present(fields, 'endpoint')) parsed.endpoint = text(fields.endpoint);
  return parsed;
}

/** Webhook URLs are zod's to judge (`z.url()`); an app with none is vouched for. */
function webhooks(app: Fields): ParsedAppsFile[number]['webhooks'] {
  if (!present(app, 'webhooks')) return {};
  const fields = plainObject(app.webhooks);
  if ('verify' in fields || 'event' in fields) throw DECLINE;
  return {};
}

/**
 * Every element, by index to `length` as zod reads them (holes read as `undefined`), never by the
 * list's own iterator, which may yield other elements than zod sees.
 */
function each<T>(list: unknown[], check: (value: unknown) => T): T[] {
  const checked: T[] = [];
  for (let index = 0; index < list.length; index += 1) checked.push(check(list[index]));
  return checked;
}

function plainObject(value: unknown): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw DECLINE;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw DECLINE;
  return value as Fields;
}

/** A field given a value; one present as `undefined` is zod's to read. */
function present(fields: Fields, name: string): boolean {
  if (!Object.hasOwn(fields, name)) {
    if (name in fields) throw DECLINE;
    return false;
  }
  if (fields[name] === undefined) throw DECLINE;
  return true;
}

function orDefault<T>(fields: Fields, name: string, fallback: T, check: (value: unknown) => T): T {
  return present(fields, name) ? check(fields[name]) : fallback;
}

function text(value: unknown, minLength = 0): string {
  if (typeof value !== 'string' || value.length < minLength) throw DECLINE;
  return value;
}

function key(value: unknown): string {
  if (typeof value !== 'string' || !BASE58_KEY.test(value)) throw DECLINE;
  return value;
}

function flag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw DECLINE;
  return value;
}

function integer(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max || Object.is(value, -0)) throw DECLINE;
  return value;
}

function texts(app: Fields, name: string): string[] {
  if (!present(app, name)) return [];
  const list = app[name];
  if (!Array.isArray(list)) throw DECLINE;
  return each(list, (item) => text(item));
}
