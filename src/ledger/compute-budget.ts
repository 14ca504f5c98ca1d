import { ComputeBudgetProgram, type PublicKey } from '@solana/web3.js';

export const COMPUTE_BUDGET_PROGRAM_ID: PublicKey = ComputeBudgetProgram.programId;
export const DEFAULT_INSTRUCTION_COMPUTE_UNITS = 200_000;
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

export type ComputeBudgetInstruction =
  | { kind: 'RequestHeapFrame'; bytes: number }
  | { kind: 'SetComputeUnitLimit'; units: number }
  | { kind: 'SetComputeUnitPrice'; microLamports: bigint }
  | { kind: 'SetLoadedAccountsDataSizeLimit'; bytes: number };

/** Decodes a ComputeBudget instruction, or returns null when the data is malformed. */
export function decodeComputeBudget(data: Uint8Array): ComputeBudgetInstruction | null {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  switch (data[0]) {
    case 1:
      return data.length === 5 ? { kind: 'RequestHeapFrame', bytes: view.readUInt32LE(1) } : null;
    case 2:
      return data.length === 5 ? { kind: 'SetComputeUnitLimit', units: view.readUInt32LE(1) } : null;
    case 3:
      return data.length === 9 ? { kind: 'SetComputeUnitPrice', microLamports: view.readBigUInt64LE(1) } : null;
    case 4:
      return data.length === 5 ? { kind: 'SetLoadedAccountsDataSizeLimit', bytes: view.readUInt32LE(1) } : null;
    default:
      return null;
  }
}

/** The fee Solana charges: a base fee per signature plus price × limit, rounded up. */
export function computeFee(options: {
  signatures: number;
  lamportsPerSignature: bigint;
  programIds: PublicKey[];
  instructionData: Uint8Array[];
}): bigint {
  let price = 0n;
  let limit: number | null = null;
  let nonBudgetInstructions = 0;
  options.programIds.forEach((programId, index) => {
    if (!programId.equals(COMPUTE_BUDGET_PROGRAM_ID)) {
      nonBudgetInstructions += 1;
      return;
    }
    const decoded = decodeComputeBudget(options.instructionData[index] ?? new Uint8Array());
    if (decoded?.kind === 'SetComputeUnitPrice') price = decoded.microLamports;
    if (decoded?.kind === 'SetComputeUnitLimit') limit = decoded.units;
  });
  const units = BigInt(Math.min(limit ?? nonBudgetInstructions * DEFAULT_INSTRUCTION_COMPUTE_UNITS, MAX_COMPUTE_UNIT_LIMIT));
  const priority = (price * units + 999_999n) / 1_000_000n;
  return BigInt(options.signatures) * options.lamportsPerSignature + priority;
}
