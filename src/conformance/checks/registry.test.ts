import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultContractValidator } from '../contract-validator.ts';
import { EMULATOR_SECTION } from './exchange-checks.ts';
import { KORA_SECTION } from './kora-checks.ts';
import { TARGET_CHECKS, exchangeChecks } from './index.ts';

const SERVICE_SPEC = readFileSync(new URL('../../../docs/relay-service-spec.md', import.meta.url), 'utf8');
const headings = new Set([...SERVICE_SPEC.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]));

/** A heading ('4.1.1'), or item N of a heading's numbered list ('5.1' = item 1 of '## 5. Authentication'). */
function sectionExists(section: string): boolean {
  if (headings.has(section)) return true;
  const match = /^(\d+(?:\.\d+)*)\.(\d+)$/.exec(section);
  const [, heading = '', item = ''] = match ?? [];
  if (!headings.has(heading)) return false;
  const start = SERVICE_SPEC.search(new RegExp(`^#{2,4} ${heading.replace(/\./g, '\\.')}\\.? `, 'm'));
  const rest = SERVICE_SPEC.slice(start).split('\n').slice(1);
  const end = rest.findIndex((line) => /^#{1,4} /.test(line));
  return rest.slice(0, end < 0 ? undefined : end).some((line) => line.startsWith(`${item}. `));
}

/**
 * SHOULD checks whose clause the contract states without an x-emulator-choice marker although the
 * service spec does not state it either (reported as a gap in the contract).
 */
const UNMARKED_CHOICES = new Map<string, string>();

function pointerTarget(pointer: string): any {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((acc, p) => acc?.[p], defaultContractValidator().document);
}

describe('the check registry', () => {
  const contract = defaultContractValidator();
  const all = [...TARGET_CHECKS, ...exchangeChecks([], contract)];

  it('has unique ids, all lower-case dotted', () => {
    const ids = all.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of TARGET_CHECKS.map((c) => c.id)) expect(id).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
  });

  it('cites sections that exist in docs/relay-service-spec.md', () => {
    expect(sectionExists('2.2') && sectionExists('5.3') && sectionExists('7.2')).toBe(true);
    expect(sectionExists('5.9') || sectionExists('4.9.1') || sectionExists('10')).toBe(false);
    for (const check of all.filter((c) => c.section !== EMULATOR_SECTION && c.section !== KORA_SECTION)) {
      expect(sectionExists(check.section), `${check.id} cites section ${check.section}`).toBe(true);
    }
  });

  it('gives every SHOULD check an x-emulator-choice of openapi/relay.yaml, and no MUST check one', () => {
    for (const check of TARGET_CHECKS) {
      if (check.level === 'MUST') {
        expect(check.choice, check.id).toBeUndefined();
        continue;
      }
      const target = pointerTarget(check.choice ?? '');
      expect(target, `${check.id} points at ${check.choice}`).toBeTypeOf('object');
      if (UNMARKED_CHOICES.has(check.id)) continue;
      expect(typeof target['x-emulator-choice'], `${check.id}: ${check.choice} has no x-emulator-choice`).toBe('string');
    }
  });

  it('reports every current operation of the contract', () => {
    const contractIds = exchangeChecks([], contract)
      .map((c) => c.id)
      .filter((id) => id.startsWith('contract.'));
    expect(contractIds).toEqual([
      'contract.getConfig',
      'contract.getBlockhash',
      'contract.getBlockhashByPost',
      'contract.createAccount',
      'contract.closeAccount',
      'contract.getAccountInfo',
      'contract.getHistory',
      'contract.getBalance',
      'contract.sendTransaction',
      'contract.sendBatch',
    ]);
  });

  it("cites Kora's checks to docs/kora.md, which names each", () => {
    const page = readFileSync(new URL('../../../docs/kora.md', import.meta.url), 'utf8');
    const kora = TARGET_CHECKS.filter((check) => check.section === KORA_SECTION);
    expect(kora.map((check) => check.id).every((id) => id.startsWith('kora.'))).toBe(true);
    for (const check of kora) expect(page, check.id).toContain(`\`${check.id}\``);
  });

  it('is documented, id by id, with its level, in src/conformance/README.md', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const check of TARGET_CHECKS) {
      expect(readme, check.id).toContain(`| \`${check.id}\` | ${check.level} | ${check.section} |`);
    }
  });
});
