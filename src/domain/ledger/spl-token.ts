import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';

/**
 * The SPL Token facts the emulator uses on its everyday paths: the programs' ids, the account and
 * mint sizes, the associated token address, and the few instructions it builds itself (faucet,
 * mints, Kora's transfers, the legacy server's closes). Written here rather than imported from
 * @solana/spl-token, whose 130 modules and its codec dependencies cost an emulator's cold start
 * ~140 ms (BENCHMARKS.md, issue 36); each is held to spl-token's own in spl-token.test.ts.
 * spl-token stays for what is rare and large (Token-2022's extension layouts), loaded when used.
 */
export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
export const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112');
/** A token account's size without extensions, and a mint's (SPL Token's `Account::LEN`, `Mint::LEN`). */
export const ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

/** The associated token account of `owner` for `mint` under `programId` (an off-curve owner, a PDA, is allowed). */
export function associatedTokenAddress(mint: PublicKey, owner: PublicKey, programId: PublicKey = TOKEN_PROGRAM_ID): PublicKey {
  return PublicKey.findProgramAddressSync([owner.toBuffer(), programId.toBuffer(), mint.toBuffer()], ASSOCIATED_TOKEN_PROGRAM_ID)[0];
}

/** The Associated Token program's Create (`idempotent`: CreateIdempotent), the payer paying the rent. */
export function createAssociatedTokenAccount(
  payer: PublicKey,
  account: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  options: { programId?: PublicKey; idempotent?: boolean } = {},
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: options.programId ?? TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: options.idempotent ? Buffer.from([1]) : Buffer.alloc(0),
  });
}

/** SPL Token's TransferChecked (12): `amount` of `mint` from `source` to `destination`, signed by `owner`. */
export function transferChecked(
  source: PublicKey,
  mint: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
  decimals: number,
  programId: PublicKey = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return tokenInstruction(programId, [writable(source), readonly(mint), writable(destination), signer(owner)], [12, ...u64(amount), decimals]);
}

/** SPL Token's MintTo (7), or MintToChecked (14) with `decimals`. */
export function mintTo(
  mint: PublicKey,
  destination: PublicKey,
  authority: PublicKey,
  amount: bigint,
  options: { decimals?: number; programId?: PublicKey } = {},
): TransactionInstruction {
  const data = options.decimals === undefined ? [7, ...u64(amount)] : [14, ...u64(amount), options.decimals];
  return tokenInstruction(options.programId ?? TOKEN_PROGRAM_ID, [writable(mint), writable(destination), signer(authority)], data);
}

/** SPL Token's CloseAccount (9): `account`'s lamports to `destination`, signed by `authority`. */
export function closeAccount(
  account: PublicKey,
  destination: PublicKey,
  authority: PublicKey,
  programId: PublicKey = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return tokenInstruction(programId, [writable(account), writable(destination), signer(authority)], [9]);
}

/** SPL Token's InitializeMint2 (20): no rent sysvar; a null freeze authority is COption::None, its one tag byte. */
export function initializeMint2(
  mint: PublicKey,
  decimals: number,
  mintAuthority: PublicKey,
  freezeAuthority: PublicKey | null,
  programId: PublicKey = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  const data = [20, decimals, ...mintAuthority.toBytes(), ...(freezeAuthority ? [1, ...freezeAuthority.toBytes()] : [0])];
  return tokenInstruction(programId, [writable(mint)], data);
}

type Meta = TransactionInstruction['keys'][number];
const writable = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: false, isWritable: true });
const readonly = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: false, isWritable: false });
const signer = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: true, isWritable: false });

function tokenInstruction(programId: PublicKey, keys: Meta[], data: number[]): TransactionInstruction {
  return new TransactionInstruction({ programId, keys, data: Buffer.from(data) });
}

function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}
