/**
 * The transactions Kinetic SDK 1.0.0-rc.1 to rc.18 builds, from the facts of its source
 * (kin-labs/kinetic, libs/solana/src/lib/helpers/generate-create-account-transaction.ts,
 * generate-make-transfer-transaction.ts, generate-make-transfer-batch-transaction.ts and
 * libs/solana/src/lib/kin/create-kin.memo.ts, kin-memo.ts; rc.1 took the memo from
 * @kin-tools/kin-transaction, same layout). Every version builds the same instructions:
 * - a Memo v1 instruction (no accounts) whose data is the base64 text of the 32-byte Agora memo,
 *   when the mint has `addMemo` (the app's default mint's addMemo in rc.1);
 * - create: ATA Create(payer = mint fee payer, ata, owner, mint), then
 *   SetAuthority(ata, owner, CloseAccount → fee payer);
 * - make-transfer: with senderCreate, ATA Create(payer = fee payer, destination's ATA, destination,
 *   mint) and no close-authority hand-over; then TransferChecked(owner's token account, mint,
 *   destination token account, owner, amount in base units, decimals);
 * - batch: one TransferChecked per destination (at most 15), no account creation.
 * The legacy `Transaction` has the mint's fee payer as `feePayer`, the blockhash and
 * lastValidBlockHeight from latest-blockhash, `signatures: [{ owner, null }]`; the owner
 * partially signs and it is serialized without requiring every signature, as base64.
 */
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { type Keypair, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';

export const MEMO_V1 = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/** Kinetic's TransactionType (the memo's 5-bit type). */
export const TransactionType = { None: 0, Earn: 1, Spend: 2, P2P: 3 } as const;

/**
 * The Agora memo as base64 text, written bit by bit from its layout (little-endian bit order):
 * bits 0-1 magic 1, 2-4 version 1, 5-9 type, 10-25 app index, 26-255 the foreign key, which is
 * the reference decoded from base64 (rc.15+), else 29 zero bytes. Independent of src/interfaces/legacy/app-memo.ts.
 */
export function kineticMemoText(options: { index: number; type?: number; reference?: string | null }): string {
  const bytes = new Uint8Array(32);
  const put = (bit: number, value: number, width: number) => {
    for (let i = 0; i < width && bit + i < 256; i++) if ((value >> i) & 1) bytes[(bit + i) >> 3]! |= 1 << ((bit + i) & 7);
  };
  put(0, 1, 2);
  put(2, 1, 3);
  put(5, options.type ?? TransactionType.None, 5);
  put(10, options.index, 16);
  const foreignKey = options.reference ? Buffer.from(options.reference, 'base64') : Buffer.alloc(29);
  if (foreignKey.length > 29) throw new Error('invalid foreign key length'); // Kinetic's own refusal
  for (const [i, byte] of foreignKey.entries()) put(26 + 8 * i, byte, 8);
  return Buffer.from(bytes).toString('base64');
}

function memo(options: { index: number; type?: number; reference?: string | null }): TransactionInstruction {
  return new TransactionInstruction({ keys: [], programId: MEMO_V1, data: Buffer.from(kineticMemoText(options)) });
}

/** Whole-token amount text → base units, rounding down past the decimals (Kinetic's addDecimals). */
export function addDecimals(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

export function tokenAddress(owner: PublicKey | string, mint: PublicKey | string): PublicKey {
  return getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner));
}

interface Common {
  addMemo: boolean;
  index: number;
  blockhash: string;
  lastValidBlockHeight: number;
  mintFeePayer: string;
  mintPublicKey: string;
  owner: Keypair;
}

function sign(common: Common, instructions: TransactionInstruction[]): string {
  const transaction = new Transaction({
    blockhash: common.blockhash,
    feePayer: new PublicKey(common.mintFeePayer),
    lastValidBlockHeight: common.lastValidBlockHeight,
    signatures: [{ publicKey: common.owner.publicKey, signature: null }],
  }).add(...instructions);
  transaction.partialSign(common.owner);
  return transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
}

export function createAccountTransaction(common: Common & { reference?: string | null }): string {
  const feePayer = new PublicKey(common.mintFeePayer);
  const ownerTokenAccount = tokenAddress(common.owner.publicKey, common.mintPublicKey);
  return sign(common, [
    ...(common.addMemo ? [memo({ index: common.index, reference: common.reference })] : []),
    createAssociatedTokenAccountInstruction(feePayer, ownerTokenAccount, common.owner.publicKey, new PublicKey(common.mintPublicKey)),
    createSetAuthorityInstruction(ownerTokenAccount, common.owner.publicKey, AuthorityType.CloseAccount, feePayer),
  ]);
}

export function makeTransferTransaction(
  common: Common & {
    amount: string;
    mintDecimals: number;
    destination: string;
    destinationTokenAccount: string;
    ownerTokenAccount: string;
    senderCreate: boolean;
    type: number;
    reference?: string | null;
  },
): string {
  const mint = new PublicKey(common.mintPublicKey);
  const destinationTokenAccount = new PublicKey(common.destinationTokenAccount);
  return sign(common, [
    ...(common.addMemo ? [memo({ index: common.index, reference: common.reference, type: common.type })] : []),
    ...(common.senderCreate
      ? [createAssociatedTokenAccountInstruction(new PublicKey(common.mintFeePayer), destinationTokenAccount, new PublicKey(common.destination), mint)]
      : []),
    transferChecked(
      common.ownerTokenAccount,
      mint,
      destinationTokenAccount,
      common.owner.publicKey,
      addDecimals(common.amount, common.mintDecimals),
      common.mintDecimals,
    ),
  ]);
}

export function makeTransferBatchTransaction(
  common: Common & { mintDecimals: number; ownerTokenAccount: string; destinations: { amount: string; destination: string }[]; type: number },
): string {
  const mint = new PublicKey(common.mintPublicKey);
  return sign(common, [
    ...(common.addMemo ? [memo({ index: common.index, type: common.type })] : []),
    ...common.destinations.map(({ amount, destination }) =>
      transferChecked(
        common.ownerTokenAccount,
        mint,
        new PublicKey(destination),
        common.owner.publicKey,
        addDecimals(amount, common.mintDecimals),
        common.mintDecimals,
      ),
    ),
  ]);
}

function transferChecked(source: string, mint: PublicKey, destination: PublicKey, owner: PublicKey, amount: bigint, decimals: number): TransactionInstruction {
  return createTransferCheckedInstruction(new PublicKey(source), mint, destination, owner, amount, decimals, [], TOKEN_PROGRAM_ID);
}
