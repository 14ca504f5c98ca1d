import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { Clock, start, type ProgramTestContext } from 'solana-bankrun';
import type { FeeRules } from './compute-budget.ts';
import type { EngineClock, EngineExecution, EngineFactory, EngineTransaction, LedgerAccount, LedgerEngine } from './engine.ts';
import { currentProgramAccounts } from './mainnet-programs.ts';
import { SLOT_HASHES_SYSVAR, SlotHashes } from './slot-hashes.ts';

const SYSVAR_OWNER = new PublicKey('Sysvar1111111111111111111111111111111111111');
const EPOCH_SCHEDULE_SYSVAR = new PublicKey('SysvarEpochSchedu1e111111111111111111111111');
import { parseTransactionError } from './transaction-error.ts';
import { InternalError } from '../../base/errors/internal-error.ts';
import { EpochSchedule } from './epoch-schedule.ts';

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
 * It takes the transaction object, not the wire bytes: rebinding changes the message anyway.
 *
 * bankrun reports no inner instructions (its `BanksTransactionMeta` has logs, return data and
 * compute units only), so they are null here, as on a validator that does not record them.
 *
 * Its programs are mainnet's current Token-2022, Associated Token Account and Memo builds
 * (mainnet-programs.ts), loaded over the ones bankrun bundles; its SPL Token stays the 2024 build,
 * since its VM cannot run p-token.
 */
export const createBankrunEngine: EngineFactory = async (genesis, settings = {}) => {
  const context = await start(
    [],
    [...currentProgramAccounts(), ...genesis].map(({ address, account }) => ({
      address,
      // A bigint, as setAccount passes it: bankrun converts with BigInt(), and a number rounds past 2^53.
      info: { ...account, lamports: account.lamports as unknown as number, rentEpoch: 0 },
    })),
    settings.computeUnitLimit,
    undefined,
    settings.deactivatedFeatures?.map((feature) => new PublicKey(feature)),
  );
  if (settings.slotsPerEpoch !== undefined) {
    // bankrun has no setter for it: the sysvar's account is written, as its bank reads sysvars from accounts.
    const sysvar = await context.banksClient.getAccount(EPOCH_SCHEDULE_SYSVAR);
    const data = new EpochSchedule(settings.slotsPerEpoch).sysvarData();
    context.setAccount(EPOCH_SCHEDULE_SYSVAR, { lamports: sysvar?.lamports ?? 0, data, owner: SYSVAR_OWNER, executable: false });
  }
  const slotHashes = await context.banksClient.getAccount(SLOT_HASHES_SYSVAR);
  return new BankrunEngine(context, BigInt(slotHashes?.lamports ?? 0));
};

const FEE_RULES: FeeRules = { lamportsPerSignature: 5000n, builtinInstructionUnits: null };

class BankrunEngine implements LedgerEngine {
  readonly name = 'bankrun';
  readonly deploysPrograms = false;
  readonly checksCapitalization = true;
  readonly #context: ProgramTestContext;
  readonly #slotHashes = new SlotHashes();
  /** The sysvar's own lamports, kept as the bank made it. */
  readonly #slotHashesLamports: bigint;
  readonly #rentCache = new Map<number, bigint>();
  #slot = 0n;

  constructor(context: ProgramTestContext, slotHashesLamports: bigint) {
    this.#context = context;
    this.#slotHashesLamports = slotHashesLamports;
  }

  /** bankrun takes programs at start only (deploysPrograms is false): nothing to check before a swap. */
  programProblem(): string | null {
    return null;
  }

  async currentBlockhash(): Promise<string> {
    const latest = await this.#context.banksClient.getLatestBlockhash();
    if (!latest) throw new InternalError('ENGINE_NO_BLOCKHASH', { engine: 'bankrun' });
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
   * Rebinding changes what bankrun sees: two different transactions that differ only by their
   * blockhash, rebound to the same one, are one message to bankrun, which refuses the second as
   * already processed. That is a twin, not a replay (its signature is new), and it runs again on
   * bankrun's next blockhash (a few ms away).
   *
   * Replays are the caller's to refuse (the emulator's records do, as with LiteSVM), never
   * bankrun's status cache: it outlives reset(), which bankrun cannot clear, so a transaction run
   * before a reset (or built the same again after it, as createMint's counter builds it) would be
   * refused as AlreadyProcessed on a ledger that no longer holds it.
   */
  async execute({ tx }: EngineTransaction): Promise<EngineExecution> {
    for (let attempt = 1; ; attempt += 1) {
      const blockhash = await this.#rebind(tx);
      const result = await this.#context.banksClient.tryProcessTransaction(tx);
      if (result.result !== ALREADY_PROCESSED || attempt >= MAX_REBINDS) return toExecution(result);
      await this.#blockhashAfter(blockhash);
    }
  }

  /** As {@link execute}: a twin of a message bankrun processed is simulated again on its next blockhash, never reported AlreadyProcessed. */
  async simulate({ tx }: EngineTransaction): Promise<EngineExecution> {
    for (let attempt = 1; ; attempt += 1) {
      const blockhash = await this.#rebind(tx);
      const result = await this.#context.banksClient.simulateTransaction(tx);
      if (result.result !== ALREADY_PROCESSED || attempt >= MAX_REBINDS) return toExecution(result);
      await this.#blockhashAfter(blockhash);
    }
  }

  /** bankrun's simulation reports logs, units and return data only, never an account. */
  async simulateAccounts(): Promise<null> {
    return null;
  }

  advance(clock: EngineClock): void {
    if (clock.slot > this.#slot) {
      this.#context.warpToSlot(clock.slot);
      this.#slot = clock.slot;
      // The bank's own SlotHashes after a warp holds only the slot it warped from: the ledger's
      // (slot-hashes.ts) holds every slot it passed, as the litesvm engine's does.
      this.#context.setAccount(SLOT_HASHES_SYSVAR, {
        lamports: this.#slotHashesLamports as unknown as number,
        owner: SYSVAR_OWNER,
        data: this.#slotHashes.moveTo(clock.slot),
        executable: false,
        rentEpoch: 0,
      });
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

  async #rebind(tx: VersionedTransaction): Promise<string> {
    tx.message.recentBlockhash = await this.currentBlockhash();
    return tx.message.recentBlockhash;
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
    error: result.result === null ? null : parseTransactionError(result.result),
    logs: result.meta?.logMessages ?? [],
    computeUnitsConsumed: result.meta?.computeUnitsConsumed ?? 0n,
    returnData: returnData ? { programId: new PublicKey(returnData.programId).toBase58(), data: returnData.data } : null,
    innerInstructions: null,
  };
}
