// Over 250 lines: one class around the one LiteSVM handle, each method a short translation of one engine call.
import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
// LiteSVM's native binding, not its kit wrapper: the binding takes and gives wire bytes and raw keys,
// which the emulator already holds, so nothing is converted to @solana/kit types and back. The
// package's own kit (8.x) stays nested under it, unloaded; the project's @solana/kit is unaffected.
import { Account, Clock, SimulatedTransactionInfo, type LiteSvm } from 'litesvm/dist/internal.js';
import type { FeeRules } from './compute-budget.ts';
import type { EngineClock, EngineExecution, EngineFactory, EngineTransaction, LedgerAccount, LedgerEngine } from './engine.ts';
import { genesisKey, LOADERS, releaseBank, settingsKey, takeBank, type OriginalAccount } from './litesvm-bank.ts';
import { SLOT_HASHES_SYSVAR, SlotHashes } from './slot-hashes.ts';
import { asBankStoresSysvar, SYSVAR_OWNER } from './sysvar-accounts.ts';
import { toExecution } from './litesvm-execution.ts';
import { decodeBase58, encodeBase58 } from '../../base/crypto/base58.ts';
import { addressOf, keyBytesOf } from '../../base/crypto/key-cache.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

/**
 * LiteSVM behind the {@link LedgerEngine} seam: the same SPL Token, Token-2022, Associated Token,
 * Memo (v1 and v3) and ComputeBudget programs, loaded from the binaries the litesvm package ships
 * (`new LiteSvm()` adds them with the sysvars, builtins and precompiles).
 *
 * Its own checks that the emulator already made are off:
 * - signatures: the relay verified the client's and made the fee payer's; RPC sendTransaction
 *   verifies before it queues, and simulateTransaction verifies only when asked (`sigVerify`), as
 *   the validator does. Verifying again would cost two ed25519 checks per transfer for nothing.
 * - the blockhash: {@link Ledger} owns validity (150 blocks from hand-out, or until expired);
 *   LiteSVM would accept only its latest blockhash.
 * - transaction history: the emulator's records refuse replays; LiteSVM's would keep every
 *   transaction's metadata for the life of the emulator.
 *
 * Blockhashes are the engine's own chain (each the SHA-256 of the one before, from a fixed seed):
 * a new one with every slot and after every executed transaction, the same from run to run, never
 * tied to wall time.
 *
 * Banks are reused: a closed engine's bank is reset and handed to the next (litesvm-bank.ts);
 * execution results are translated in litesvm-execution.ts.
 */
export const createLiteSvmEngine: EngineFactory = async (genesis, settings = {}) => {
  const accounts = genesisKey(genesis.map(({ address, account }) => ({ address: addressOf(address), ...account, owner: addressOf(account.owner) })));
  // A bank is made for its settings as well as its genesis: a pooled one serves only the same of both.
  const key = `${settingsKey(settings)}${accounts}`;
  const { svm, warm } = takeBank(key, settings);
  const engine = new LiteSvmEngine(svm, key);
  // A bank of this key holds this genesis already (its engine's writes were put back); a new one gets it once, and keeps it.
  if (!warm) for (const { address, account } of genesis) engine.loadGenesisAccount(address, account);
  return engine;
};

const FEE_RULES: FeeRules = { lamportsPerSignature: 5000n, builtinInstructionUnits: 3000 };
const BLOCKHASH_SEED = createHash('sha256').update('relay-emulator litesvm blockhash').digest();

class LiteSvmEngine implements LedgerEngine {
  readonly name = 'litesvm';
  readonly deploysPrograms = true;
  readonly checksCapitalization = false;
  #svm: LiteSvm | null;
  readonly #rentCache = new Map<number, bigint>();
  readonly #owners = new Map<string, PublicKey>();
  /** What the bank held at each address before this engine first wrote it (null: nothing). */
  readonly #original = new Map<string, OriginalAccount>();
  #reusable = true;
  /** Executable accounts the bank could not load as programs, kept as plain data: reported executable as written. */
  readonly #unloadable = new Set<string>();
  #slot = 0n;
  #blockhash = BLOCKHASH_SEED;
  #blockhashText = encodeBase58(BLOCKHASH_SEED);
  /** Steps of the chain not yet taken: they are taken when a blockhash is asked for, not per transaction. */
  #pendingSteps = 0;
  /** The SlotHashes sysvar, written at every new slot (LiteSVM never moves it by itself). */
  readonly #slotHashes = new SlotHashes();
  #slotHashesAccount: Account | null = null;

  /** The genesis its bank holds (litesvm-bank.ts, genesisKey): where the bank goes back when this engine closes. */
  readonly #genesis: string;

  constructor(svm: LiteSvm, genesis: string) {
    this.#svm = svm;
    this.#genesis = genesis;
  }

  /**
   * A genesis account, kept with the bank: not remembered for the reset, which puts back what the
   * engine wrote since genesis, so that the bank returns to its pool holding this genesis (programs
   * loaded, with LiteSVM's program cache). A program LiteSVM cannot load is the user's to know about.
   */
  loadGenesisAccount(address: PublicKey, account: LedgerAccount): void {
    try {
      this.#open().setAccount(keyBytesOf(address), toNative(account));
    } catch (error) {
      if (!account.executable) throw error;
      throw new InternalError('PROGRAM_INVALID', {
        problem: `the litesvm engine cannot load the program at ${addressOf(address)}: ${(error as Error).message}`,
        address: addressOf(address),
      });
    }
  }

  async currentBlockhash(): Promise<string> {
    this.#catchUp();
    return this.#blockhashText;
  }

  async getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    const account = this.#open().getAccount(keyBytesOf(address));
    if (!account) return null;
    const lamports = account.lamports();
    if (lamports === 0n) return null;
    const read = {
      lamports,
      owner: this.#ownerOf(account.owner()),
      data: account.data(),
      executable: account.executable() || (this.#unloadable.size > 0 && this.#unloadable.has(addressOf(address))),
    };
    return read.owner.equals(SYSVAR_OWNER) ? asBankStoresSysvar(addressOf(address), read) : read;
  }

  programProblem(elf: Uint8Array): string | null {
    return verifierProblem(elf);
  }

  setAccount(address: PublicKey, account: LedgerAccount): void {
    const svm = this.#open();
    const bytes = keyBytesOf(address);
    this.#remember(svm, addressOf(address), bytes);
    if (account.executable || LOADERS.has(addressOf(account.owner))) this.#reusable = false;
    const address_ = addressOf(address);
    this.#unloadable.delete(address_);
    try {
      svm.setAccount(bytes, toNative(account));
    } catch (error) {
      // LiteSVM loads an executable account as a program and refuses one it cannot load; bankrun
      // stores it as given. Store it as data, report it as written: invoking it fails either way.
      if (!account.executable) throw error;
      svm.setAccount(bytes, toNative({ ...account, executable: false }));
      this.#unloadable.add(address_);
    }
  }

  async execute({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const { message } = tx;
    if (message.version !== 'legacy' && message.addressTableLookups.length > 0) this.#reusable = false;
    // Only writable accounts can change (programs and other read-only keys cannot).
    message.staticAccountKeys.forEach((key, index) => {
      if (message.isAccountWritable(index)) this.#remember(svm, addressOf(key), keyBytesOf(key));
    });
    const bound = withBlockhash(bytes, svm.latestBlockhash());
    const result = tx.version === 'legacy' ? svm.sendLegacyTransaction(bound) : svm.sendVersionedTransaction(bound);
    // The next blockhash handed out is a new one, as bankrun's (which moves with wall time) and a
    // cluster's (which moves every 400 ms) would be by then: two equal transactions built one after
    // the other differ by their blockhash, instead of being one transaction (a slot holds many).
    this.#nextBlockhash();
    return toExecution(result);
  }

  async simulate({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const bound = withBlockhash(bytes, svm.latestBlockhash());
    const result = tx.version === 'legacy' ? svm.simulateLegacyTransaction(bound) : svm.simulateVersionedTransaction(bound);
    return toExecution(result);
  }

  async simulateAccounts(
    { tx, bytes }: EngineTransaction,
    addresses: PublicKey[],
  ): Promise<{ execution: EngineExecution; accounts: (LedgerAccount | null)[] }> {
    const svm = this.#open();
    const bound = withBlockhash(bytes, svm.latestBlockhash());
    const result = tx.version === 'legacy' ? svm.simulateLegacyTransaction(bound) : svm.simulateVersionedTransaction(bound);
    const execution = toExecution(result);
    const after = new Map<string, Account>();
    if (result instanceof SimulatedTransactionInfo) for (const entry of result.postAccounts()) after.set(encodeBase58(entry.address), entry.account());
    const accounts = await Promise.all(
      addresses.map(async (address) => {
        const native = after.get(addressOf(address));
        if (!native) return this.getAccount(address);
        if (native.lamports() === 0n) return null;
        return { lamports: native.lamports(), owner: this.#ownerOf(native.owner()), data: native.data(), executable: native.executable() };
      }),
    );
    return { execution, accounts };
  }

  advance(clock: EngineClock): void {
    const svm = this.#open();
    if (clock.slot > this.#slot) {
      // A new slot is a new block with a new blockhash. The bank's own blockhash moves too: durable
      // nonces store it, and a nonce advances once per blockhash.
      this.#nextBlockhash();
      svm.expireBlockhash();
      this.#slot = clock.slot;
      this.#writeSlotHashes(svm, clock.slot);
    }
    svm.setClock(new Clock(clock.slot, clock.epochStartTimestamp, clock.epoch, clock.leaderScheduleEpoch, clock.unixTimestamp));
  }

  feeRules(): FeeRules {
    return FEE_RULES;
  }

  async minimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    let lamports = this.#rentCache.get(dataLength);
    if (lamports === undefined) {
      lamports = this.#open().minimumBalanceForRentExemption(BigInt(dataLength));
      this.#rentCache.set(dataLength, lamports);
    }
    return lamports;
  }

  async close(): Promise<void> {
    const svm = this.#svm;
    if (!svm) return;
    this.#svm = null;
    if (this.#reusable) releaseBank(svm, this.#original.values(), this.#genesis);
  }

  /**
   * Moves the chain one step. Only counted here: relayed transfers run back to back with no
   * blockhash asked for between them, and a SHA-256 and a base58 encoding per transaction showed
   * under the profiler (BENCHMARKS.md, "Measured reasons"). The chain is the same, taken later.
   */
  #nextBlockhash(): void {
    this.#pendingSteps += 1;
  }

  #catchUp(): void {
    if (this.#pendingSteps === 0) return;
    for (; this.#pendingSteps > 0; this.#pendingSteps -= 1) this.#blockhash = createHash('sha256').update(this.#blockhash).digest();
    this.#blockhashText = encodeBase58(this.#blockhash);
  }

  /** One write of the sysvar's account (LiteSVM refreshes its sysvar cache from it): about 35 µs a slot. */
  #writeSlotHashes(svm: LiteSvm, slot: bigint): void {
    const address = SLOT_HASHES_SYSVAR.toBytes();
    this.#slotHashesAccount ??= svm.getAccount(address);
    const current = this.#slotHashesAccount!;
    svm.setAccount(address, new Account(current.lamports(), this.#slotHashes.moveTo(slot), current.owner(), false, current.rentEpoch()));
  }

  #remember(svm: LiteSvm, address: string, bytes: Uint8Array): void {
    if (this.#original.has(address)) return;
    this.#original.set(address, { bytes, account: svm.getAccount(bytes) });
  }

  #open(): LiteSvm {
    if (!this.#svm) throw new InternalError('ENGINE_CLOSED', { engine: 'LiteSVM' });
    return this.#svm;
  }

  /** Owners are few (System, the token programs, loaders): one PublicKey each, not one per read. */
  #ownerOf(bytes: Uint8Array): PublicKey {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let owner = this.#owners.get(key);
    if (!owner) {
      owner = new PublicKey(bytes);
      this.#owners.set(key, owner);
    }
    return owner;
  }
}

function toNative(account: LedgerAccount): Account {
  return new Account(account.lamports, account.data, keyBytesOf(account.owner), account.executable, 0n);
}

/** A bank of its own that only loads programs, to run LiteSVM's ELF loader and verifier on an ELF before a deploy: made on first use. */
let verifier: LiteSvm | null = null;
const VERIFY_AT = new Uint8Array(32).fill(7);

/** LiteSVM's own words for why it cannot load `elf` (its `addProgram` verifies), or null when it can. */
function verifierProblem(elf: Uint8Array): string | null {
  verifier ??= takeBank().svm;
  try {
    verifier.addProgram(VERIFY_AT, elf);
    return null;
  } catch (error) {
    return String((error as Error).message ?? error).replace(/^Failed to add program: /, '');
  }
}

/**
 * The wire transaction with its recent blockhash replaced by the bank's (LiteSVM's latest), as the
 * bankrun engine rebinds it. LiteSVM runs a transaction with the blockhash it names as the bank's
 * (what a durable nonce stores and advances against), where a validator uses its bank's own; bound
 * so, a nonce stored in one slot advances in the next whatever blockhash the client reused (web3.js
 * caches one for 30 s). Sound because signatures were verified against the client's message
 * already, and LiteSVM checks none (its sigverify is off). The copy leaves `bytes` as they were.
 */
export function withBlockhash(bytes: Uint8Array, blockhash: string): Uint8Array {
  const at = blockhashOffset(bytes);
  const bound = new Uint8Array(bytes);
  bound.set(decodeBase58(blockhash)!, at);
  return bound;
}

/** Where a wire transaction's recent blockhash starts: past its signatures, the version prefix, the header and the account keys. */
function blockhashOffset(bytes: Uint8Array): number {
  const shortVec = (at: number): [value: number, next: number] => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at]!;
      value |= (byte & 0x7f) << shift;
      at += 1;
      if ((byte & 0x80) === 0) return [value, at];
    }
  };
  const [signatures, afterCount] = shortVec(0);
  let at = afterCount + 64 * signatures;
  if ((bytes[at]! & 0x80) !== 0) at += 1;
  at += 3;
  const [keys, afterKeys] = shortVec(at);
  return afterKeys + 32 * keys;
}
