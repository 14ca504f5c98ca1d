import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBLEMS, type ProblemCode } from '../errors/problem-codes.ts';
import { openApiDocument } from '../openapi/document.ts';

/**
 * The fee-payer policy is written once, as the table in openapi/relay.yaml; the code cites rule ids
 * as `(rule X)`. These tests keep the two in step: no rule without a check, no check without a rule,
 * and the code a check throws is the code its rule documents.
 */
interface Rule {
  id: string;
  text: string;
  code: ProblemCode;
  status: number;
  /** The `faithful` column: `same`, or what that profile relays instead. */
  faithful: string;
}

function rulesTable(): Rule[] {
  const description = String(openApiDocument().info.description);
  const section = description.split('## Fee-payer policy')[1]!;
  return section
    .split('\n')
    .filter((line) => /^\| [A-Z]\d+ \|/.test(line))
    .map((line) => {
      const [id, text, codeCell, faithful] = line.replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
      const [, code, status] = /^([A-Z0-9_]+)(?: \((\d{3})\))?$/.exec(codeCell!)!;
      return { id: id!, text: text!, code: code as ProblemCode, status: status ? Number(status) : 422, faithful: faithful ?? '' };
    });
}

const RELAY_DIR = fileURLToPath(new URL('.', import.meta.url));

function sources(): { file: string; text: string }[] {
  const files = [...readdirSync(RELAY_DIR).map((name) => name), ...readdirSync(join(RELAY_DIR, 'policy')).map((name) => join('policy', name))];
  return files.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map((file) => ({ file, text: readFileSync(join(RELAY_DIR, file), 'utf8') }));
}

/** Every `(rule X, rule Y)` citation, with the RelayError code thrown within the next three lines (if any). */
function citations(): { file: string; ids: string[]; code: string | null }[] {
  const found: { file: string; ids: string[]; code: string | null }[] = [];
  for (const { file, text } of sources()) {
    const lines = text.split('\n');
    lines.forEach((line, at) => {
      for (const match of line.matchAll(/\(rule ([^)]*)\)/g)) {
        const ids = [...match[1]!.matchAll(/\b([A-Z]\d+)\b/g)].map((id) => id[1]!);
        const following = lines.slice(at, at + 4).join('\n');
        const code = /(?:new RelayError|strictOnly)\('([A-Z0-9_]+)'/.exec(following)?.[1] ?? (/\binvalid\(/.test(following) ? 'INVALID_TRANSACTION' : null);
        found.push({ file, ids, code });
      }
    });
  }
  return found;
}

describe('the fee-payer policy table of openapi/relay.yaml', () => {
  const rules = rulesTable();
  const byId = new Map(rules.map((rule) => [rule.id, rule]));

  it('lists rules with unique ids, each answered with a registered code and the status it states', () => {
    expect(rules.length).toBeGreaterThanOrEqual(35);
    expect(byId.size).toBe(rules.length);
    for (const rule of rules) {
      expect(PROBLEMS[rule.code], `${rule.id}: ${rule.code}`).toBeDefined();
      expect(PROBLEMS[rule.code].status, rule.id).toBe(rule.status);
    }
  });

  it('has every rule checked somewhere in src/relay, and every cited rule in the table', () => {
    const cited = new Set(citations().flatMap((citation) => citation.ids));
    expect([...byId.keys()].filter((id) => !cited.has(id))).toEqual([]);
    expect([...cited].filter((id) => !byId.has(id))).toEqual([]);
  });

  it('relaxes under faithful exactly the rules whose faithful column says so, with the code they document', () => {
    const relaxed = new Map<string, string[]>();
    for (const { text } of sources()) {
      for (const match of text.matchAll(/strictOnly\('([A-Z0-9_]+)', '([A-Z]\d+)'/g)) relaxed.set(match[2]!, [...(relaxed.get(match[2]!) ?? []), match[1]!]);
    }
    const documented = rules.filter((rule) => rule.faithful !== 'same').map((rule) => rule.id);
    expect(rules.every((rule) => rule.faithful !== '')).toBe(true);
    expect([...relaxed.keys()].sort()).toEqual(documented.sort());
    for (const [id, codes] of relaxed) expect(codes.every((code) => code === byId.get(id)!.code), id).toBe(true);
  });

  it('throws, at each citation, a code that one of the cited rules documents', () => {
    const mismatches = citations()
      .filter((citation) => citation.code !== null && !citation.ids.some((id) => byId.get(id)?.code === citation.code))
      .map((citation) => `${citation.file}: (rule ${citation.ids.join(', ')}) throws ${citation.code}`);
    expect(mismatches).toEqual([]);
  });
});
