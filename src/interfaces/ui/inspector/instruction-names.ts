import type { LegacyRecord } from '../../legacy/legacy-records.ts';
import { type NamedInstruction, namedInstructions } from '../../rpc/program-errors.ts';

/** The legacy route a record came through: a make-transfer names an amount; a close, a CloseAccount; else an account/create. */
export function legacyOperationId(legacy: LegacyRecord): string {
  if (legacy.amount !== null) return 'legacyMakeTransfer';
  const closes = instructionsOf(legacy.tx).some(
    (ix) => typeof ix.parsed === 'object' && ix.parsed !== null && (ix.parsed as { type?: unknown }).type === 'closeAccount',
  );
  return closes ? 'legacyCloseAccount' : 'legacyCreateAccount';
}

/** A transaction's instructions as jsonParsed renders them (program names and parsed types), for naming errors. */
export function instructionsOf(base64: string): NamedInstruction[] {
  return namedInstructions(new Uint8Array(Buffer.from(base64, 'base64')));
}
