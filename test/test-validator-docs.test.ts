/**
 * docs/test-validator.md lists every flag of solana-test-validator with what `relay-emulator
 * test-validator` does with it: held here to the table the parser reads (test-validator-flags.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VALIDATOR_FLAGS } from '../src/adapters/cli/test-validator/test-validator-flags.ts';
import { parseTestValidatorArgs } from '../src/adapters/cli/test-validator/test-validator-options.ts';
import { SURFPOOL_OPTIONS, SURFPOOL_VERSION } from '../src/adapters/cli/shims/surfpool-command.ts';

const page = readFileSync(new URL('../docs/test-validator.md', import.meta.url), 'utf8');
const section = page.slice(
  page.indexOf('## Every flag of solana-test-validator'),
  page.indexOf('\n## ', page.indexOf('## Every flag of solana-test-validator') + 1),
);
const rows = new Map(
  section
    .split('\n')
    .filter((line) => line.startsWith('| `--'))
    .map((line) => {
      const [names, , kind, does] = line.slice(2, -2).split(' | ');
      return [/`--([^`]+)`/.exec(names!)![1]!, { kind, does }] as const;
    }),
);

describe('docs/test-validator.md', () => {
  it('has a row for every flag, with its kind and what it does, and no other', () => {
    for (const flag of VALIDATOR_FLAGS) expect(rows.get(flag.name), flag.name).toEqual({ kind: flag.kind, does: flag.does });
    expect([...rows.keys()].filter((name) => !VALIDATOR_FLAGS.some((flag) => flag.name === name))).toEqual([]);
  });

  it('is what the parser does: every honoured and noted flag is taken, every refused one refused', () => {
    const valueFor = (name: string) =>
      name.includes('PUBKEY') || name.includes('ADDRESS')
        ? 'So11111111111111111111111111111111111111112'
        : name.endsWith('.SO')
          ? 'x.so'
          : name.includes('PORT')
            ? '8000'
            : '64';
    for (const flag of VALIDATOR_FLAGS) {
      const args = [`--${flag.name}`, ...flag.values.map(valueFor), ...(/clone|warp-slot/.test(flag.name) ? ['--url', 'http://127.0.0.1:1'] : [])];
      if (flag.kind === 'refused') expect(() => parseTestValidatorArgs(args, {}, '/nonexistent'), flag.name).toThrow(/cannot be honoured here/);
      else expect(() => parseTestValidatorArgs(args, {}, '/nonexistent'), flag.name).not.toThrow();
    }
  });

  it('names every flag the surfpool stand-in takes, in its surfpool start section', () => {
    const surfpool = page.slice(page.indexOf('## `surfpool start`'), page.indexOf('### Anchor 1.x'));
    const named = new Set([...surfpool.matchAll(/`--([a-z-]+)`/g)].map((match) => match[1]));
    expect(Object.keys(SURFPOOL_OPTIONS).filter((flag) => !named.has(flag))).toEqual([]);
    expect(surfpool).toContain(`\`surfpool ${SURFPOOL_VERSION} (relay-emulator …)\``);
  });
});
