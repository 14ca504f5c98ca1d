/**
 * Checks judged from every exchange of the run, after the other checks: each response was
 * validated against openapi/relay.yaml as it arrived (see TargetClient); here the results are
 * reported per operation, and the spec's "Responses are JSON" is judged over all of them.
 */
import type { ConformanceCheck } from '../check.ts';
import { ensure, skip } from '../check.ts';
import { operationsOf } from '../../domain/openapi/document.ts';
import type { ContractValidator } from '../contract-validator.ts';
import type { Exchange } from '../target-client.ts';

type Check = ConformanceCheck<unknown>;

/** Section of the emulator's own routes, which the service spec does not have. */
export const EMULATOR_SECTION = 'n/a';

/** Violations listed in full in a reason; the rest are counted. */
const MAX_LISTED = 3;

function where(e: Exchange): string {
  return `${e.label} → ${e.status}${e.checkId ? ` (during ${e.checkId})` : ''}`;
}

function jsonResponsesCheck(exchanges: Exchange[]): Check {
  return {
    id: 'responses.json',
    section: '4',
    level: 'MUST',
    interface: 'current',
    title: 'Every response of a current endpoint is JSON (a JSON body and a JSON content type)',
    async run() {
      const current = exchanges.filter((e) => e.status !== undefined && e.tags?.includes('current'));
      if (current.length === 0) skip('no current endpoint answered');
      const bad = current.filter((e) => !e.json || !/^application\/([a-z0-9.+-]*\+)?json\b/i.test(e.contentType ?? ''));
      ensure(
        bad.length === 0,
        `${bad.length} of ${current.length} responses are not JSON: ${bad
          .slice(0, MAX_LISTED)
          .map((e) => `${where(e)} ${e.contentType ?? 'no content type'}${e.json ? '' : ', body not JSON'}`)
          .join('; ')}`,
      );
      return plural(current.length, 'response');
    },
  };
}

/** Every operation of the contract, in document order: [operationId, 'METHOD /path', tags]. */
function contractOperations(contract: ContractValidator): { operationId: string; label: string; pointer: string; tags: string[] }[] {
  return [...operationsOf(contract.document)].map(([operationId, { method, path, operation }]) => ({
    operationId,
    label: `${method} ${path}`,
    pointer: `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}`,
    tags: operation.tags ?? [],
  }));
}

/**
 * One check per operation: every current operation, plus any other the run exercised.
 * SHOULD: the contract as a whole carries the emulator's choices (statuses, problem bodies);
 * what the service spec pins is checked at MUST level by the specific checks.
 */
function contractChecks(exchanges: Exchange[], contract: ContractValidator): Check[] {
  return contractOperations(contract)
    .filter((op) => op.tags.includes('current') || exchanges.some((e) => e.operationId === op.operationId))
    .map((op) => ({
      id: `contract.${op.operationId}`,
      section: op.tags.includes('legacy') ? '4.3' : op.tags.includes('current') ? '4.1' : EMULATOR_SECTION,
      level: 'SHOULD' as const,
      interface: op.tags.includes('legacy') ? ('legacy' as const) : op.tags.includes('current') ? ('current' as const) : ('any' as const),
      choice: op.pointer,
      title: `Responses of ${op.label} match openapi/relay.yaml`,
      async run() {
        const seen = exchanges.filter((e) => e.operationId === op.operationId && e.status !== undefined);
        if (seen.length === 0) skip(`no request reached ${op.label} in this run`);
        const violations = seen.filter((e) => e.contractError);
        ensure(
          violations.length === 0,
          `${violations.length} of ${seen.length} responses differ: ${violations
            .slice(0, MAX_LISTED)
            .map((e) => `${where(e)}: ${oneLine(e.contractError!)}`)
            .join(' | ')}${violations.length > MAX_LISTED ? ` | …and ${violations.length - MAX_LISTED} more` : ''}`,
        );
        return plural(seen.length, 'response');
      },
    }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** An ajv report on one line, without the echoed value. */
function oneLine(error: string): string {
  return error
    .split('\nvalue:')[0]!
    .split('\n')
    .map((l) => l.replace(/\s+\[schema [^\]]*\]$/, '').trim())
    .filter(Boolean)
    .join('; ');
}

export function exchangeChecks(exchanges: Exchange[], contract: ContractValidator): Check[] {
  return [jsonResponsesCheck(exchanges), ...contractChecks(exchanges, contract)];
}
