import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../src/base/errors/rule-ids.ts';

/** The rule ids `RuleId` allows are exactly the rows of the contract's table "Fee-payer policy". */
describe('RULE_IDS', () => {
  it('lists every row of the contract’s table "Fee-payer policy", and nothing else', () => {
    const spec = readFileSync(new URL('../openapi/relay.yaml', import.meta.url), 'utf8');
    const table = spec.slice(spec.indexOf('| Rule | The relay refuses'));
    const rows = [...table.matchAll(/^\s+\| ([A-Z]\d) \|/gm)].map((match) => match[1]);
    expect(rows.length).toBeGreaterThan(30);
    expect([...RULE_IDS].sort()).toEqual([...new Set(rows)].sort());
  });
});
