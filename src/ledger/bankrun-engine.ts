import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { Clock, start, type ProgramTestContext } from 'solana-bankrun';
import type { FeeRules } from './compute-budget.ts';
import type { EngineClock, EngineExecution, EngineFactory, EngineTransaction, LedgerAccount, LedgerEngine } from './engine.ts';
import { parseTransactionError } from './transaction-error.ts';

// bankrun logs every transaction through the Rust logger unless told otherwise.
process.env.RUST_LOG ??= 'error';

/**
 * solana-bankrun behind the {@link LedgerEngine} seam.
 *
 * bankrun ticks its blockhash queue on wall time (a blockhash dies after about a second) and does
 * not verify signatures. The emulator owns blockhash validity instead ({@link Ledger}), so this
 * engine rebinds each transaction to bankrun's current blockhash before executing it. That is
 * sound only because signatures were verified beforehand against the client's original message.
 * It takes the transaction object, not the wire bytes: rebinding changes the message anyway.
 *
 * bankrun reports no inner instructions (its `BanksTransactionMeta` has logs, return data and
 * compute units only), so they are null here, as on a validator that does not record them.
 */
export const createBankrunEngine: EngineFactory = async (genesis) => {
  const context = await start(
    [],
    genesis.map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } })),
  );
  return new BankrunEngine(context);
};

const FEE_RULES: FeeRules = { lamportsPerSignature: 5000n, builtinInstructionUnits: null };

class BankrunEngine implements LedgerEngine {
  readonly name = 'bankrun';
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

  async execute({ tx }: EngineTransaction): Promise<EngineExecution> {
    await this.#rebind(tx);
    return toExecution(await this.#context.banksClient.tryProcessTransaction(tx));
  }

  async simulate({ tx }: EngineTransaction): Promise<EngineExecution> {
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

  feeRules(): FeeRules {
    return FEE_RULES;
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

  async #rebind(tx: VersionedTransaction): Promise<void> {
    tx.message.recentBlockhash = await this.currentBlockhash();
  }
}

function toExecution(result: {
  result: string | null;
  meta: { logMessages: string[]; computeUnitsConsumed: bigint; returnData: { programId: PublicKey; data: Uint8Array } | null } | null;
}): EngineExecution {
  const returnData = result.meta?.returnData;
  return {
    error: result.result === null ? null : parseTransactionError(result.result),
    logs: result.meta?.logMessages ?? [],
    computeUnitsConsumed: result.meta?.computeUnitsConsumed ?? 0n,
    returnData: returnData ? { programId: new PublicKey(returnData.programId).toBase58(), data: returnData.data } : null,
    innerInstructions: null,
  };
}
