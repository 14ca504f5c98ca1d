import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { Clock, start, type ProgramTestContext } from 'solana-bankrun';
import { encodeBase58 } from '../crypto/base58.ts';
import type { EngineClock, EngineExecution, EngineFactory, LedgerAccount, LedgerEngine } from './engine.ts';

/** bankrun's text for a transaction whose message it has processed before. */
const ALREADY_PROCESSED = 'This transaction has already been processed';
/** Runs of one transaction, each on a new blockhash, before an AlreadyProcessed stands. */
const MAX_REBINDS = 3;

// bankrun logs every transaction through the Rust logger unless told otherwise.
process.env.RUST_LOG ??= 'error';

/**
 * solana-bankrun behind the {@link LedgerEngine} seam.
 *
 * bankrun ticks its blockhash queue on wall time (a blockhash dies after about a second) and does
 * not verify signatures. The emulator owns blockhash validity instead ({@link Ledger}), so this
 * engine rebinds each transaction to bankrun's current blockhash before executing it. That is
 * sound only because signatures were verified beforehand against the client's original message.
 */
export const createBankrunEngine: EngineFactory = async (genesis) => {
  const context = await start(
    [],
    genesis.map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } })),
  );
  return new BankrunEngine(context);
};

class BankrunEngine implements LedgerEngine {
  readonly #context: ProgramTestContext;
  readonly #rentCache = new Map<number, bigint>();
  #slot = 0n;

  constructor(context: ProgramTestContext) {
    this.#context = context;
  }

  async currentBlockhash(): Promise<string> {
    const latest = await this.#context.banksClient.getLatestBlockhash();
    if (!latest) throw new Error('bankrun returned no blockhash');
    return latest[0];
  }

  async getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    const account = await this.#context.banksClient.getAccount(address);
    if (!account || account.lamports === 0) return null;
    // bankrun's getAccount passes lamports through a JS number; past 2^53 ask for the exact balance.
    const lamports = Number.isSafeInteger(account.lamports) ? BigInt(account.lamports) : await this.#context.banksClient.getBalance(address);
    return {
      lamports,
      owner: account.owner,
      data: account.data,
      executable: account.executable,
    };
  }

  setAccount(address: PublicKey, account: LedgerAccount): void {
    this.#context.setAccount(address, {
      // bankrun converts with BigInt(), so a bigint stays exact where a number would round past 2^53.
      lamports: account.lamports as unknown as number,
      owner: account.owner,
      data: account.data,
      executable: account.executable,
      rentEpoch: 0,
    });
  }

  /**
   * Rebinding changes what bankrun sees, both ways. A replay rebound to a newer blockhash is a new
   * message to bankrun, so a signature it has executed is refused here, as the network refuses it.
   * And two different transactions that differ only by their blockhash, rebound to the same one,
   * are one message to bankrun, which refuses the second as already processed: that is a twin, not
   * a replay (its signature is new), and it runs again on bankrun's next blockhash (a few ms away).
   */
  async execute(tx: VersionedTransaction): Promise<EngineExecution> {
    if (await this.#knows(tx)) return { error: ALREADY_PROCESSED, logs: [], computeUnitsConsumed: 0n, returnData: null };
    for (let attempt = 1; ; attempt += 1) {
      const blockhash = await this.#rebind(tx);
      const result = await this.#context.banksClient.tryProcessTransaction(tx);
      if (result.result !== ALREADY_PROCESSED || attempt >= MAX_REBINDS) return toExecution(result);
      await this.#blockhashAfter(blockhash);
    }
  }

  async simulate(tx: VersionedTransaction): Promise<EngineExecution> {
    await this.#rebind(tx);
    return toExecution(await this.#context.banksClient.simulateTransaction(tx));
  }

  advance(clock: EngineClock): void {
    if (clock.slot > this.#slot) {
      this.#context.warpToSlot(clock.slot);
      this.#slot = clock.slot;
    }
    this.#context.setClock(new Clock(clock.slot, clock.epochStartTimestamp, clock.epoch, clock.leaderScheduleEpoch, clock.unixTimestamp));
  }

  lamportsPerSignature(): bigint {
    return 5000n;
  }

  async minimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    let lamports = this.#rentCache.get(dataLength);
    if (lamports === undefined) {
      const rent = await this.#context.banksClient.getRent();
      lamports = rent.minimumBalance(BigInt(dataLength));
      this.#rentCache.set(dataLength, lamports);
    }
    return lamports;
  }

  async close(): Promise<void> {
    // bankrun exposes no shutdown; dropping the context is all that can be done.
  }

  async #rebind(tx: VersionedTransaction): Promise<string> {
    tx.message.recentBlockhash = await this.currentBlockhash();
    return tx.message.recentBlockhash;
  }

  async #knows(tx: VersionedTransaction): Promise<boolean> {
    return (await this.#context.banksClient.getTransactionStatus(encodeBase58(tx.signatures[0]!))) !== null;
  }

  /** Resolves once bankrun hands out a blockhash other than `previous` (it ticks one every few ms of wall time). */
  async #blockhashAfter(previous: string): Promise<void> {
    const deadline = Date.now() + 1_000;
    while ((await this.currentBlockhash()) === previous && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function toExecution(result: {
  result: string | null;
  meta: { logMessages: string[]; computeUnitsConsumed: bigint; returnData: { programId: PublicKey; data: Uint8Array } | null } | null;
}): EngineExecution {
  const returnData = result.meta?.returnData;
  return {
    error: result.result,
    logs: result.meta?.logMessages ?? [],
    computeUnitsConsumed: result.meta?.computeUnitsConsumed ?? 0n,
    returnData: returnData ? { programId: new PublicKey(returnData.programId).toBase58(), data: returnData.data } : null,
  };
}
