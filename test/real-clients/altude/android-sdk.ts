/**
 * The Altude Android SDK (AltudePlatform/AndroidSDK at b457d0c) on the wire, reproduced from its
 * source: Retrofit's TransactionService (core/api/TransactionService.kt) with the X-API-Key
 * interceptor of SdkConfig, kotlinx-serialized bodies (SendTransactionRequest, GetBalanceRequest,
 * GetAccountInfoRequest), AltudeRpc's JSON-RPC calls with `Authorization: Bearer <Token>`, and
 * GaslessManager's transactions with the Kotlin instruction builders' exact layouts
 * (AssociatedTokenAccountProgram, TokenProgram, MPLCore compute budget). Facts taken from that
 * source; the code is ours. The transactions are compiled with web3.js, so the message's account
 * order is web3.js's; every instruction's keys, flags and data are the SDK's.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { ComputeBudgetProgram, type Keypair, PublicKey, SystemProgram, SYSVAR_RENT_PUBKEY, Transaction, TransactionInstruction } from '@solana/web3.js';
import type { Answer, Wire } from './recorder.ts';

/** What OkHttp sends for a kotlinx body (the converter's media type, charset added by OkHttp). */
const JSON_UTF8 = 'application/json; charset=utf-8';
/** ComputeOptions() default: computeUnitLimit 400,000, no price, no heap frame. */
export const ANDROID_COMPUTE_UNIT_LIMIT = 400_000;

/** AssociatedTokenAccountProgram.createAssociatedTokenAccount: Create (empty data), seven accounts with the rent sysvar. */
export function androidCreateAta(ata: PublicKey, feePayer: PublicKey, owner: PublicKey, mint: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    data: Buffer.alloc(0),
    keys: [
      { pubkey: feePayer, isSigner: true, isWritable: true },
      { pubkey: ata, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: SYSVAR_RENT_PUBKEY, isSigner: false, isWritable: false },
    ],
  });
}

/** TokenProgram.transferToken: TransferChecked (12), with the mint listed writable. */
export function androidTransferChecked(
  source: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  amount: bigint,
  decimals: number,
): TransactionInstruction {
  const data = Buffer.alloc(10);
  data.writeUInt8(12, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(decimals, 9);
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    data,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
  });
}

/** TokenProgram.setAuthority: SetAuthority (6), authority type 3 (CloseAccount), Some(newOwner). */
export function androidSetAuthority(ata: PublicKey, currentAuthority: PublicKey, newOwner: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    data: Buffer.concat([Buffer.from([6, 3, 1]), newOwner.toBuffer()]),
    keys: [
      { pubkey: ata, isSigner: false, isWritable: true },
      { pubkey: currentAuthority, isSigner: true, isWritable: false },
    ],
  });
}

/** TokenProgram.closeAtaAccount: CloseAccount (9). */
export function androidCloseAta(ata: PublicKey, destination: PublicKey, authority: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    data: Buffer.from([9]),
    keys: [
      { pubkey: ata, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
  });
}

/** MPLCore.setComputeUnitLimit: tag 2, u32 units, no accounts. */
export function androidComputeUnitLimit(units = ANDROID_COMPUTE_UNIT_LIMIT): TransactionInstruction {
  const data = Buffer.alloc(5);
  data.writeUInt8(2, 0);
  data.writeUInt32LE(units, 1);
  return new TransactionInstruction({ programId: ComputeBudgetProgram.programId, data, keys: [] });
}

/** AssociatedTokenAccountProgram.deriveAtaAddress. */
export function androidAta(owner: PublicKey, mint: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true);
}

/** The SDK's calls, each sent as Retrofit and OkHttp send it. */
export class AndroidSdk {
  config: Record<string, unknown> = {};
  readonly #wire: Wire;
  readonly #apiKey: string;

  constructor(wire: Wire, apiKey: string) {
    this.#wire = wire;
    this.#apiKey = apiKey;
  }

  get feePayer(): PublicKey {
    return new PublicKey(this.config.FeePayer as string);
  }

  /** SdkConfig.initialize: `service.getConfig()`, GET api/transaction/config. */
  async init(): Promise<Answer> {
    const answer = await this.#wire.send('GET', '/api/transaction/config', { 'X-API-Key': this.#apiKey });
    this.config = answer.body as Record<string, unknown>;
    return answer;
  }

  /** POST with a kotlinx body (compact, properties in declaration order). */
  post(path: string, body: Record<string, string> | null): Promise<Answer> {
    const headers: Record<string, string> = { 'X-API-Key': this.#apiKey };
    if (body !== null) headers['Content-Type'] = JSON_UTF8;
    return this.#wire.send('POST', path, headers, body === null ? '' : JSON.stringify(body));
  }

  /** AltudeRpc.getLatestBlockhash(commitment = "finalized"): the id is a random unsigned int as a string. */
  async latestBlockhash(): Promise<string> {
    const result = await this.#wire.rpc(this.config.Token as string, 'getLatestBlockhash', [{ commitment: 'finalized' }], '3141592653');
    return result.value.blockhash as string;
  }

  /** Utility.ataExists / getAccountInfo: getAccountInfo with jsonParsed encoding; null when the account is not there. */
  async accountInfo(address: PublicKey): Promise<any> {
    return (await this.#wire.rpc(this.config.Token as string, 'getAccountInfo', [address.toBase58(), { encoding: 'jsonParsed' }])).value;
  }

  /** Utility.getTokenDecimals: the mint's parsed decimals. */
  async tokenDecimals(mint: PublicKey): Promise<number> {
    return (await this.accountInfo(mint)).data.parsed.info.decimals as number;
  }

  /** Builds the transaction as AltudeTransactionBuilder does (fee payer, blockhash, partial signatures), base64 NO_WRAP. */
  async serialize(instructions: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const tx = new Transaction({ feePayer: this.feePayer, blockhash: await this.latestBlockhash(), lastValidBlockHeight: 0 });
    tx.add(...instructions);
    if (signers.length > 0) tx.partialSign(...signers);
    return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
  }

  /** GaslessManager.createAccount: for each token whose ATA is missing, Create + SetAuthority(CloseAccount → fee payer). */
  async createAccount(owner: Keypair, tokens: PublicKey[]): Promise<{ transaction: string; answer: Answer }> {
    const instructions: TransactionInstruction[] = [];
    for (const mint of tokens) {
      const ata = androidAta(owner.publicKey, mint);
      if (await this.accountInfo(ata)) continue;
      instructions.push(androidCreateAta(ata, this.feePayer, owner.publicKey, mint), androidSetAuthority(ata, owner.publicKey, this.feePayer));
    }
    const transaction = await this.serialize([androidComputeUnitLimit(), ...instructions], [owner]);
    return { transaction, answer: await this.post('/api/account/create', { SignedTransaction: transaction }) };
  }

  /** The transfer instructions of GaslessManager.transferToken for one option: the recipient's ATA created, without a hand-over, when missing. */
  async transferInstructions(owner: Keypair, to: PublicKey, amount: bigint, mint: PublicKey): Promise<TransactionInstruction[]> {
    const source = androidAta(owner.publicKey, mint);
    const destination = androidAta(to, mint);
    if (!(await this.accountInfo(source))) throw new Error('Owner associated token account does not exist.');
    const create = (await this.accountInfo(destination)) ? [] : [androidCreateAta(destination, this.feePayer, to, mint)];
    return [...create, androidTransferChecked(source, destination, owner.publicKey, mint, amount, await this.tokenDecimals(mint))];
  }

  /** Altude.send → GaslessManager.transferToken → POST api/transaction/send. */
  async send(owner: Keypair, to: PublicKey, amount: bigint, mint: PublicKey): Promise<{ transaction: string; answer: Answer }> {
    const transaction = await this.serialize([androidComputeUnitLimit(), ...(await this.transferInstructions(owner, to, amount, mint))], [owner]);
    return { transaction, answer: await this.post('/api/transaction/send', { SignedTransaction: transaction }) };
  }

  /** Altude.sendBatch → GaslessManager.batchTransferToken → POST api/transaction/sendbatch. */
  async sendBatch(owner: Keypair, transfers: { to: PublicKey; amount: bigint; mint: PublicKey }[]): Promise<{ transaction: string; answer: Answer }> {
    const instructions: TransactionInstruction[] = [];
    for (const { to, amount, mint } of transfers) instructions.push(...(await this.transferInstructions(owner, to, amount, mint)));
    const transaction = await this.serialize([androidComputeUnitLimit(), ...instructions], [owner]);
    return { transaction, answer: await this.post('/api/transaction/sendbatch', { SignedTransaction: transaction }) };
  }

  /**
   * GaslessManager.closeAccount: for each token whose ATA holds nothing (or is wrapped SOL), a close
   * to and by the fee payer when it is the close authority, else to and by the owner, who signs.
   */
  async closeAccount(owner: Keypair, tokens: PublicKey[]): Promise<{ transaction: string; answer: Answer }> {
    const instructions: TransactionInstruction[] = [];
    let ownerSigns = false;
    for (const mint of tokens) {
      const ata = androidAta(owner.publicKey, mint);
      const info = await this.accountInfo(ata);
      if (!info) continue;
      const parsed = info.data.parsed.info;
      if ((parsed.tokenAmount.uiAmount ?? 0) !== 0 && !mint.equals(NATIVE)) continue;
      const byFeePayer = parsed.closeAuthority === this.feePayer.toBase58();
      ownerSigns ||= !byFeePayer;
      const authority = byFeePayer ? this.feePayer : owner.publicKey;
      instructions.push(androidCloseAta(ata, authority, authority));
    }
    const transaction = await this.serialize([androidComputeUnitLimit(), ...instructions], ownerSigns ? [owner] : []);
    return { transaction, answer: await this.post('/api/account/close', { SignedTransaction: transaction }) };
  }

  /** Altude.getBalance: GetBalanceRequest(accountAddress, mintAddress). */
  getBalance(account: PublicKey, token: PublicKey): Promise<Answer> {
    return this.post('/api/account/balance', { accountAddress: account.toBase58(), mintAddress: token.toBase58() });
  }

  /** Altude.getAccountInfo: GetAccountInfoRequest(accountAddress). */
  getAccountInfo(account: PublicKey): Promise<Answer> {
    return this.post('/api/account/getaccountinfo', { accountAddress: account.toBase58() });
  }

  /** Altude.getHistory: @Query Page (its offset), PageSize (its limit), walletAddress; no body. */
  getHistory(account: PublicKey, offset = 0, limit = 10): Promise<Answer> {
    return this.post(`/api/account/gethistory?Page=${offset}&PageSize=${limit}&walletAddress=${account.toBase58()}`, null);
  }
}

/** Token.SOL: the wrapped-SOL mint. */
export const NATIVE = new PublicKey('So11111111111111111111111111111111111111112');

/**
 * The SDK's default tokens (gasstation/data/Token.kt, `Token.mint()`): the devnet address when the
 * config's RpcEnvironment is "devnet", else the mainnet one. CreateAccountOption, CloseAccountOption
 * and GetBalanceOption default to Token.USDC; SendOptions defaults to Token.KIN (one address for both).
 */
export const ANDROID_DEFAULT_TOKENS = {
  USDC: { devnet: new PublicKey('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'), mainnet: new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v') },
  KIN: { devnet: new PublicKey('kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6'), mainnet: new PublicKey('kinXdEcpDQeHPEuQnqmUgtYykqKGVFq6CeVX5iAHJq6') },
} as const;

/** Token.mint(): devnet when `RpcEnvironment.lowercase() == "devnet"`. */
export function androidDefaultMint(token: keyof typeof ANDROID_DEFAULT_TOKENS, rpcEnvironment: string): PublicKey {
  return ANDROID_DEFAULT_TOKENS[token][rpcEnvironment.toLowerCase() === 'devnet' ? 'devnet' : 'mainnet'];
}
