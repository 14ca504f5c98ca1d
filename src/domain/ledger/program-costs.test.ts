/**
 * The programs each engine runs and what they cost, against docs/programs.md and mainnet's
 * published figures: the page cannot drift from the engines, and the default engine's SPL Token is
 * p-token (SIMD-0266).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_NAMES, type EngineName } from './engines.ts';
import { LISTED_PROGRAMS, measureProgramCosts, programHashes, unitsPerInstruction, type MeasuredStep } from './program-costs.test-support.ts';

const page = readFileSync(new URL('../../../docs/programs.md', import.meta.url), 'utf8');
const TOKEN = LISTED_PROGRAMS['SPL Token'];

/** The cells of the page's table rows whose first cell is `first`. */
function rows(first: string): string[][] {
  return page
    .split('\n')
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells[0] === first);
}

describe('docs/programs.md', () => {
  const costs = {} as Record<EngineName, MeasuredStep[]>;
  const hashes = {} as Record<EngineName, Awaited<ReturnType<typeof programHashes>>>;
  beforeAll(async () => {
    for (const engine of ENGINE_NAMES) {
      costs[engine] = await measureProgramCosts(engine);
      hashes[engine] = await programHashes(engine);
    }
  });

  it('names the sha256 of the code each engine runs at each address', () => {
    for (const name of Object.keys(LISTED_PROGRAMS) as (keyof typeof LISTED_PROGRAMS)[]) {
      const [listed] = rows(name);
      expect(listed, name).toBeDefined();
      expect(listed![3], name).toBe(`\`${hashes.litesvm[name]}\``);
      if (name === 'SPL Token') continue;
      expect(hashes.bankrun[name], `bankrun runs the same ${name}`).toBe(hashes.litesvm[name]);
    }
    // bankrun's SPL Token is its own, listed on the row that names bankrun.
    const bankrunToken = rows('SPL Token').find((cells) => cells[1] === 'bankrun');
    expect(bankrunToken?.[3]).toBe(`\`${hashes.bankrun['SPL Token']}\``);
    expect(hashes.bankrun['SPL Token']).not.toBe(hashes.litesvm['SPL Token']);
  });

  it('gives the compute units measured on each engine', () => {
    for (const engine of ENGINE_NAMES) {
      const column = engine === 'litesvm' ? 2 : 3;
      for (const step of costs[engine]) {
        const [row] = rows(step.name);
        if (!row) continue; // Steps the page does not list (setting up for the next one).
        expect(row[column], `${engine}: ${step.name}`).toBe(String(step.units));
      }
    }
    expect(costs.litesvm.filter((step) => rows(step.name).length > 0)).toHaveLength(7);
  });

  it("runs p-token by default: mainnet's published costs, no instruction-name logs", () => {
    const byName = Object.fromEntries(costs.litesvm.map((step) => [step.name, step]));
    // SIMD-0266's figures for p-token without logs.
    expect(byName.Transfer!.units).toBe(76);
    expect(byName.TransferChecked!.units).toBe(105);
    for (const step of costs.litesvm) {
      if (step.name.startsWith('CreateIdempotent')) continue;
      expect(step.units, step.name).toBeLessThan(250);
      expect(
        step.result.logs.filter((line) => line.startsWith('Program log: Instruction:')),
        step.name,
      ).toEqual([]);
    }
    // bankrun's 2024 SPL Token logs each instruction's name and costs tens of times as much.
    const bankrunTransfer = costs.bankrun.find((step) => step.name === 'TransferChecked')!;
    expect(bankrunTransfer.result.logs).toContain('Program log: Instruction: TransferChecked');
    expect(bankrunTransfer.units).toBeGreaterThan(4_000);
  });

  it('runs the same Associated Token Account program on both engines: an existing account costs the same', () => {
    const existing = (engine: EngineName) => costs[engine].find((step) => step.name === 'CreateIdempotent (existing account)')!;
    expect(existing('bankrun').units).toBe(existing('litesvm').units);
    expect(existing('bankrun').result.logs).toEqual(existing('litesvm').result.logs);
  });
});

describe('unitsPerInstruction', () => {
  it('reads each top-level instruction’s units and skips the ones its CPIs consumed', () => {
    const logs = [
      'Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL invoke [1]',
      `Program ${TOKEN} invoke [2]`,
      `Program ${TOKEN} consumed 183 of 393073 compute units`,
      `Program ${TOKEN} success`,
      'Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL consumed 15022 of 400000 compute units',
      'Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL success',
      `Program ${TOKEN} invoke [1]`,
      `Program ${TOKEN} consumed 161 of 384978 compute units`,
      `Program ${TOKEN} failed: custom program error: 0x1`,
    ];
    expect(unitsPerInstruction(logs)).toEqual([15022, 161]);
  });
});
