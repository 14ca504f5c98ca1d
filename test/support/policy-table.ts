/**
 * The fee-payer policy table of openapi/relay.yaml ("Fee-payer policy" in info.description): the
 * one place the rules are written. test/adversarial.engines.test.ts breaks each rule and checks the code.
 */
import type { ProblemCode } from '../../src/base/errors/problem-codes.ts';
import { openApiDocument } from '../../src/domain/openapi/document.ts';

export interface PolicyRule {
  id: string;
  text: string;
  code: ProblemCode;
  /** The status the table states, 422 when it states none. */
  status: number;
  /** The `faithful` column: `same`, or what that profile relays instead (and records as a strict break). */
  faithful: string;
}

export function policyRules(): PolicyRule[] {
  const description = String(openApiDocument().info.description);
  const section = description.split('## Fee-payer policy')[1];
  if (section === undefined) throw new Error('openapi/relay.yaml has no "## Fee-payer policy" section');
  return section
    .split('\n')
    .filter((line) => /^\| [A-Z]\d+ \|/.test(line))
    .map((line) => {
      const [id, text, codeCell, faithful] = line
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((cell) => cell.trim());
      if (!faithful) throw new Error(`policy rule ${id}: no faithful column`);
      const parsed = /^([A-Z0-9_]+)(?: \((\d{3})\))?$/.exec(codeCell ?? '');
      if (!parsed) throw new Error(`policy rule ${id}: cannot read its code from "${codeCell}"`);
      return { id: id!, text: text!, code: parsed[1] as ProblemCode, status: parsed[2] ? Number(parsed[2]) : 422, faithful };
    });
}
