/**
 * altude-js (AltudePlatform/altude-js, packages/gasstation) on the wire, from its source: the HTTP
 * client (client.ts) in its newer form (2982bee: `{SignedTransaction}` first, a lower-case fallback,
 * `{accountAddress, mintAddress}` with `""` for no mint, the RPC for blockhashes and history) and its
 * older one (031f6d8: `{transaction, commitment}`, `{address, mint}`, POST /Transaction/blockhash
 * with `{}`), and the transactions gasstation.ts builds with gill 0.14 (buildTransferTokensTransaction:
 * SetComputeUnitLimit 31,000, CreateIdempotent of the recipient's ATA paid by the fee payer,
 * Transfer; getTransferSolInstruction; getCloseAccountInstruction; getCreateAccountInstruction),
 * whose account metas and data are those of @solana-program/token-2022 0.6 and system 0.10. The
 * React Native demo calls the same package. Compiled with web3.js: the message's account order is
 * web3.js's, every instruction's keys, flags and data are gill's.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { ComputeBudgetProgram, type Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { address, createNoopSigner } from 'gill';
import { getCloseAccountInstruction } from 'gill/programs/token';
import type { Answer, Wire } from './recorder.ts';

/** buildTransferTokensTransaction's default compute-unit limit. */
export const GILL_TRANSFER_COMPUTE_UNITS = 31_000;

function meta(pubkey: PublicKey, flags: '' | 's' | 'w' | 'sw') {
  return { pubkey, isSigner: flags.includes('s'), isWritable: flags.includes('w') };
}

/** gill's transfer-tokens instructions: the compute limit, CreateIdempotent (tag 1) of the recipient's ATA, Transfer (tag 3). */
export function gillTransferTokens(args: {
  feePayer: PublicKey;
  mint: PublicKey;
  authority: PublicKey;
  destination: PublicKey;
  amount: bigint;
}): TransactionInstruction[] {
  const sourceAta = getAssociatedTokenAddressSync(args.mint, args.authority, true);
  const destinationAta = getAssociatedTokenAddressSync(args.mint, args.destination, true);
  const limit = Buffer.alloc(5);
  limit.writeUInt8(2, 0);
  limit.writeUInt32LE(GILL_TRANSFER_COMPUTE_UNITS, 1);
  const transfer = Buffer.alloc(9);
  transfer.writeUInt8(3, 0);
  transfer.writeBigUInt64LE(args.amount, 1);
  return [
    new TransactionInstruction({ programId: ComputeBudgetProgram.programId, keys: [], data: limit }),
    new TransactionInstruction({
      programId: ASSOCIATED_TOKEN_PROGRAM_ID,
      data: Buffer.from([1]),
      keys: [
        meta(args.feePayer, 'sw'),
        meta(destinationAta, 'w'),
        meta(args.destination, ''),
        meta(args.mint, ''),
        meta(SystemProgram.programId, ''),
        meta(TOKEN_PROGRAM_ID, ''),
      ],
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      data: transfer,
      keys: [meta(sourceAta, 'w'), meta(destinationAta, 'w'), meta(args.authority, 's')],
    }),
  ];
}

/** getTransferSolInstruction: System transfer (u32 2, u64 lamports), source a writable signer. */
export function gillTransferSol(source: PublicKey, destination: PublicKey, lamports: bigint): TransactionInstruction {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(lamports, 4);
  return new TransactionInstruction({ programId: SystemProgram.programId, data, keys: [meta(source, 'sw'), meta(destination, 'w')] });
}

/**
 * closeAccount's instruction, built by gill 0.14 itself as gasstation.ts builds it:
 * `getCloseAccountInstruction` of `gill/programs/token`, which gill re-exports from
 * @solana-program/token-2022, so it names the Token-2022 program (its default program address)
 * whatever the account's program; the owner the fee payer's noop signer when it is the close authority.
 */
export function gillCloseAccount(account: PublicKey, destination: PublicKey, owner: PublicKey): TransactionInstruction {
  return fromKitInstruction(
    getCloseAccountInstruction({
      account: address(account.toBase58()),
      destination: address(destination.toBase58()),
      owner: createNoopSigner(address(owner.toBase58())),
    }),
  );
}

/** A kit instruction as web3.js's: roles 0–3 are readonly, writable, readonly signer, writable signer. */
export function fromKitInstruction(instruction: {
  programAddress: string;
  accounts?: readonly { address: string; role: number }[];
  data?: ArrayLike<number>;
}): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(instruction.programAddress),
    keys: (instruction.accounts ?? []).map(({ address: key, role }) => ({ pubkey: new PublicKey(key), isSigner: role >= 2, isWritable: role % 2 === 1 })),
    data: Buffer.from(Array.from(instruction.data ?? [])),
  });
}

/** getCreateAccountInstruction: System createAccount (u32 0, lamports, space, owner program), payer and new account writable signers. */
export function gillCreateAccount(payer: PublicKey, newAccount: PublicKey, lamports: bigint, space: bigint, programAddress: PublicKey): TransactionInstruction {
  const data = Buffer.alloc(52);
  data.writeUInt32LE(0, 0);
  data.writeBigUInt64LE(lamports, 4);
  data.writeBigUInt64LE(space, 12);
  programAddress.toBuffer().copy(data, 20);
  return new TransactionInstruction({ programId: SystemProgram.programId, data, keys: [meta(payer, 'sw'), meta(newAccount, 'sw')] });
}

/** The client's `#request`: JSON content type always, X-API-Key when it has a key, `JSON.stringify(body)` when there is one. */
export class AltudeJsClient {
  config: Record<string, unknown> = {};
  readonly #wire: Wire;
  readonly #apiKey: string;

  constructor(wire: Wire, apiKey: string) {
    this.#wire = wire;
    this.#apiKey = apiKey;
  }

  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    return this.#wire.send(method, path, { 'Content-Type': 'application/json', 'X-API-Key': this.#apiKey }, body === undefined ? null : JSON.stringify(body));
  }

  /** `#loadConfig`: GET /api/transaction/config. */
  async getConfig(): Promise<Record<string, unknown>> {
    this.config = (await this.request('GET', '/api/transaction/config')).body as Record<string, unknown>;
    return this.config;
  }

  get feePayer(): PublicKey {
    return new PublicKey(this.config.FeePayer as string);
  }

  /** The newer getBlockhash, and every builder's: the Gill RPC client at RpcUrl, with `Authorization: Bearer <Token>`. */
  async rpcBlockhash(): Promise<string> {
    return (await this.#wire.rpc(this.config.Token as string, 'getLatestBlockhash', [{ commitment: 'finalized' }])).value.blockhash as string;
  }

  rpc(method: string, params: unknown[]): Promise<any> {
    return this.#wire.rpc(this.config.Token as string, method, params);
  }

  /** transactionToBase64WithSigners: the fee payer's slot left empty, every other signer signs. */
  async serialize(instructions: TransactionInstruction[], signers: Keypair[], blockhash?: string): Promise<string> {
    const tx = new Transaction({ feePayer: this.feePayer, blockhash: blockhash ?? (await this.rpcBlockhash()), lastValidBlockHeight: 0 });
    tx.add(...instructions);
    if (signers.length > 0) tx.partialSign(...signers);
    return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
  }
}
