import { ComputeBudgetProgram, PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';

export const COMPUTE_BUDGET_PROGRAM_ID: PublicKey = ComputeBudgetProgram.programId;
const COMPUTE_BUDGET_ADDRESS = 'ComputeBudget111111111111111111111111111111';
const DEFAULT_INSTRUCTION_COMPUTE_UNITS = 200_000;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

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

/**
 * How a runtime charges fees. Runtimes differ in the compute units an instruction reserves when
 * the transaction sets no limit: older ones (bankrun's) reserve 200,000 for every instruction but
 * ComputeBudget's own; current ones (agave's `reserve_minimal_cus_for_builtin_instructions`,
 * LiteSVM's) reserve 3,000 for an instruction of a builtin program, ComputeBudget's included.
 */
export interface FeeRules {
  lamportsPerSignature: bigint;
  /** Units an instruction of a builtin program reserves, or null when every non-ComputeBudget instruction reserves 200,000. */
  builtinInstructionUnits: number | null;
}

/** Programs that are builtins of the current runtime (never migrated to BPF), for {@link FeeRules}. */
const BUILTIN_PROGRAMS = new Set([
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

/** Precompiles whose signatures are charged like the transaction's own: the first data byte is their count. */
const SIGNATURE_PRECOMPILES = new Set(['Ed25519SigVerify111111111111111111111111111', 'KeccakSecp256k11111111111111111111111111111']);

/**
 * The fee Solana charges: a base fee per signature (the precompiles' signatures included) plus
 * price × limit, rounded up.
 */
function computeFee(options: { signatures: number; rules: FeeRules; programIds: string[]; instructionData: Uint8Array[] }): bigint {
  const { rules } = options;
  let price = 0n;
  let limit: number | null = null;
  let reserved = 0;
  let signatures = options.signatures;
  options.programIds.forEach((programId, index) => {
    const data = options.instructionData[index] ?? new Uint8Array();
    if (SIGNATURE_PRECOMPILES.has(programId)) signatures += data[0] ?? 0;
    if (programId !== COMPUTE_BUDGET_ADDRESS) {
      reserved += rules.builtinInstructionUnits !== null && BUILTIN_PROGRAMS.has(programId) ? rules.builtinInstructionUnits : DEFAULT_INSTRUCTION_COMPUTE_UNITS;
      return;
    }
    if (rules.builtinInstructionUnits !== null) reserved += rules.builtinInstructionUnits;
    const decoded = decodeComputeBudget(data);
    if (decoded?.kind === 'SetComputeUnitPrice') price = decoded.microLamports;
    if (decoded?.kind === 'SetComputeUnitLimit') limit = decoded.units;
  });
  const units = BigInt(Math.min(limit ?? reserved, MAX_COMPUTE_UNIT_LIMIT));
  const priority = (price * units + 999_999n) / 1_000_000n;
  return BigInt(signatures) * rules.lamportsPerSignature + priority;
}

/** The fee a transaction's fee payer is charged under `rules` (see {@link computeFee}). */
export function transactionFee(tx: VersionedTransaction, rules: FeeRules): bigint {
  const keys = tx.message.staticAccountKeys;
  const instructions = tx.message.compiledInstructions;
  return computeFee({
    signatures: tx.message.header.numRequiredSignatures,
    rules,
    programIds: instructions.map((ix) => addressOf(keys[ix.programIdIndex] ?? PublicKey.default)),
    instructionData: instructions.map((ix) => ix.data),
  });
}
