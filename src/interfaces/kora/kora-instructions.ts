import type { VersionedTransaction } from '@solana/web3.js';
import { decodeBase58, encodeBase58 } from '../../base/crypto/base58.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';

/** A transaction with every instruction's accounts resolved (lookup tables included). */
export interface KoraTransaction {
  tx: VersionedTransaction;
  instructions: ResolvedInstruction[];
  accountKeys: string[];
}

/** One instruction with its accounts resolved to addresses. */
export interface ResolvedInstruction {
  program: string;
  accounts: string[];
  data: Uint8Array;
}

/** A System or SPL instruction as Kora's validator looks at it: its kind, the account Kora checks against the fee payer, lamports moved. */
export interface KoraParsed {
  /** Kora's name for the instruction in its refusals ("System Transfer", "SPL Token Burn", …). */
  name: string;
  /** The `fee_payer_policy` flag that allows the fee payer in that role. */
  policy: { family: 'system' | 'nonce' | 'spl_token' | 'token_2022'; flag: string };
  /** The accounts that may not be the fee payer without the flag (one, or a multisig's signers). */
  authorities: string[];
  /** SOL leaving `authorities[0]` (transfer, create account, nonce withdrawal), else 0. */
  lamports: bigint;
  /** A system transfer's receiver (outflow to the fee payer counts against it). */
  receiver?: string;
}

const SYSTEM = '11111111111111111111111111111111';

/**
 * The instructions of the System, SPL Token and Token-2022 programs that Kora 2.0.5's validator
 * parses (crates/lib/src/transaction/instruction_util.rs), in the roles its fee-payer policy checks
 * (validator/transaction_validator.rs). Others are none of the policy's business: null.
 */
export function parseForKora(instruction: ResolvedInstruction): KoraParsed | null {
  if (instruction.program === SYSTEM) return parseSystem(instruction);
  if (instruction.program === PROGRAMS.token.toBase58()) return parseToken(instruction, false);
  if (instruction.program === PROGRAMS.token2022.toBase58()) return parseToken(instruction, true);
  return null;
}

function u64(data: Uint8Array, at: number): bigint {
  return data.length >= at + 8 ? Buffer.from(data.buffer, data.byteOffset, data.byteLength).readBigUInt64LE(at) : 0n;
}

function parseSystem({ accounts, data }: ResolvedInstruction): KoraParsed | null {
  if (data.length < 4) return null;
  const tag = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32LE(0);
  const role =
    (family: 'system' | 'nonce') =>
    (name: string, flag: string, authority: string | undefined, lamports = 0n): KoraParsed | null =>
      authority === undefined ? null : { name, policy: { family, flag }, authorities: [authority], lamports };
  const [system, nonce] = [role('system'), role('nonce')];
  switch (tag) {
    case 0:
      return system('System Create Account', 'allow_create_account', accounts[0], u64(data, 4));
    case 1:
      return system('System Assign', 'allow_assign', accounts[0]);
    case 2: {
      const parsed = system('System Transfer', 'allow_transfer', accounts[0], u64(data, 4));
      return parsed && { ...parsed, receiver: accounts[1] };
    }
    case 4:
      return nonce('System Advance Nonce Account', 'allow_advance', accounts[2]);
    case 5:
      return nonce('System Withdraw Nonce Account', 'allow_withdraw', accounts[4], u64(data, 4));
    case 6:
      return data.length >= 36 ? nonce('System Initialize Nonce Account', 'allow_initialize', addressFrom(data, 4)) : null;
    case 7:
      return nonce('System Authorize Nonce Account', 'allow_authorize', accounts[1]);
    case 8:
      return system('System Allocate', 'allow_allocate', accounts[0]);
    default:
      return null;
  }
}

function addressFrom(data: Uint8Array, at: number): string {
  return encodeBase58(data.subarray(at, at + 32));
}

/** SPL instruction tag → [Kora's name, policy flag, index of the checked account (or 'multisig'), where a mint authority sits in data]. */
const TOKEN_ROLES: Record<number, [string, string, number | 'multisig' | 'mint-data' | 'owner-data']> = {
  0: ['InitializeMint', 'allow_initialize_mint', 'mint-data'],
  1: ['InitializeAccount', 'allow_initialize_account', 2],
  2: ['InitializeMultisig', 'allow_initialize_multisig', 'multisig'],
  3: ['Transfer', 'allow_transfer', 2],
  4: ['Approve', 'allow_approve', 2],
  5: ['Revoke', 'allow_revoke', 1],
  6: ['SetAuthority', 'allow_set_authority', 1],
  7: ['MintTo', 'allow_mint_to', 2],
  8: ['Burn', 'allow_burn', 2],
  9: ['CloseAccount', 'allow_close_account', 2],
  10: ['FreezeAccount', 'allow_freeze_account', 2],
  11: ['ThawAccount', 'allow_thaw_account', 2],
  12: ['Transfer', 'allow_transfer', 3],
  13: ['Approve', 'allow_approve', 3],
  14: ['MintTo', 'allow_mint_to', 2],
  15: ['Burn', 'allow_burn', 2],
  16: ['InitializeAccount', 'allow_initialize_account', 'owner-data'],
  18: ['InitializeAccount', 'allow_initialize_account', 'owner-data'],
  19: ['InitializeMultisig', 'allow_initialize_multisig', 'multisig'],
  20: ['InitializeMint', 'allow_initialize_mint', 'mint-data'],
};

function parseToken({ accounts, data }: ResolvedInstruction, is2022: boolean): KoraParsed | null {
  const role = data.length > 0 ? TOKEN_ROLES[data[0]!] : undefined;
  if (!role) return null;
  const [kind, flag, at] = role;
  let authorities: string[];
  if (at === 'multisig') authorities = accounts.slice(data[0] === 2 ? 2 : 1);
  else if (at === 'mint-data') authorities = data.length >= 34 ? [encodeBase58(data.subarray(2, 34))] : [];
  else if (at === 'owner-data') authorities = data.length >= 33 ? [encodeBase58(data.subarray(1, 33))] : [];
  else authorities = accounts[at] === undefined ? [] : [accounts[at]!];
  if (authorities.length === 0) return null;
  const name = is2022 ? `Token2022 Token ${kind}` : `SPL Token ${kind}`;
  return { name, policy: { family: is2022 ? 'token_2022' : 'spl_token', flag }, authorities, lamports: 0n };
}

/** Whether `text` is an address: 32 bytes of base58. */
export function isAddress(text: string): boolean {
  return decodeBase58(text)?.length === 32;
}

/** A token transfer as Kora's ParsedSPLInstructionData::SplTokenTransfer has it (Transfer: no mint; TransferChecked: the mint). */
export interface SplTransfer {
  source: string;
  destination: string;
  /** The source's owner or delegate: the authority that signs. */
  owner: string;
  mint: string | null;
  amount: bigint;
  is2022: boolean;
}

/** Every SPL Token and Token-2022 Transfer and TransferChecked among `instructions` (inner ones included), in order. */
export function splTransfers(instructions: readonly ResolvedInstruction[]): SplTransfer[] {
  const transfers: SplTransfer[] = [];
  for (const { program, accounts, data } of instructions) {
    const is2022 = program === PROGRAMS.token2022.toBase58();
    if (!is2022 && program !== PROGRAMS.token.toBase58()) continue;
    const amount = u64(data, 1);
    if (data[0] === 3 && accounts.length >= 3) {
      transfers.push({ source: accounts[0]!, destination: accounts[1]!, owner: accounts[2]!, mint: null, amount, is2022 });
    } else if (data[0] === 12 && accounts.length >= 4) {
      transfers.push({ source: accounts[0]!, destination: accounts[2]!, owner: accounts[3]!, mint: accounts[1]!, amount, is2022 });
    }
  }
  return transfers;
}
