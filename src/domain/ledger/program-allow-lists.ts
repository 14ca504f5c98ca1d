import { PublicKey } from '@solana/web3.js';
import type { Ledger } from './ledger.ts';
import type { ProgramInfo } from './loaded-programs.ts';

/**
 * One warning line for each program a configuration allows (Kora's `allowed_programs`, the policy's
 * `extraPrograms`) that nothing on the ledger answers: neither a builtin nor a loaded program, so a
 * transaction calling it passes the allow list and then fails on the ledger.
 */
export async function unansweredPrograms(ledger: Ledger, allowed: { by: string; programs: readonly string[] }[]): Promise<string[]> {
  const warnings: string[] = [];
  for (const { by, programs } of allowed) {
    for (const program of programs) {
      const account = await ledger.getAccount(new PublicKey(program));
      if (!account?.executable)
        warnings.push(`${by} names ${program}, which no builtin or loaded program answers: load it with --bpf-program (option programs)`);
    }
  }
  return warnings;
}

/**
 * The reverse: one warning line when the app's own programs are loaded but Kora's `allowed_programs`
 * leaves them out. The relay API sponsors a call to them; Kora refuses it ("Program … is not in the
 * allowed list"), as a Kora node configured so would (issue 45, item 17).
 */
/** Programs named in the Kora warning; past them, a count (GET /__emulator/programs lists them all). */
const MOST_NAMED = 10;

export function programsKoraRefuses(loaded: readonly ProgramInfo[], allowed: readonly string[], example: string): string[] {
  const allowedSet = new Set(allowed);
  const left = loaded.filter((program) => !allowedSet.has(program.programId));
  if (left.length === 0) return [];
  const shown = left.slice(0, MOST_NAMED).map((program) => (program.idl ? `${program.idl} (${program.programId})` : program.programId));
  const names = left.length > MOST_NAMED ? `${shown.join(', ')} and ${left.length - MOST_NAMED} more` : shown.join(', ');
  return [
    `Kora's allowed_programs leaves out ${names}: Kora refuses a transaction that calls ${left.length === 1 ? 'it' : 'them'} ` +
      `(the relay API sponsors it); list ${left.length === 1 ? 'it' : 'them'} under [validation] allowed_programs ` +
      `in a --kora-config (${example} is an example)`,
  ];
}
