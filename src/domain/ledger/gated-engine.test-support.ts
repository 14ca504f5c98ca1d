import type { EngineFactory, LedgerEngine } from './engine.ts';

/**
 * An engine that stops between a transaction's execution and everything after it: once `execute`
 * has returned, every `getAccount` waits until `open()` is called. So a test can read the ledger
 * at the one moment the engine already holds a transaction's writes and the ledger is reading them
 * back but has not recorded its outcome: the moment a loaded machine stretches from microseconds
 * to milliseconds.
 */
export interface GatedEngine {
  factory: EngineFactory;
  /** Resolves once the first transaction has executed and something asked for an account after it (the ledger, reading back). */
  readingBack: Promise<void>;
  /** Lets the reads through. */
  open(): void;
}

export function gatedAfterExecute(factory: EngineFactory): GatedEngine {
  let signalReadingBack!: () => void;
  const readingBack = new Promise<void>((resolve) => (signalReadingBack = resolve));
  let gate: Promise<void> | null = null;
  let release: () => void = () => undefined;
  const gated: EngineFactory = async (genesis) => {
    const inner = await factory(genesis);
    const engine: LedgerEngine = {
      name: inner.name,
      deploysPrograms: inner.deploysPrograms,
      checksCapitalization: inner.checksCapitalization,
      currentBlockhash: () => inner.currentBlockhash(),
      async getAccount(address) {
        if (gate) {
          signalReadingBack();
          await gate;
        }
        return inner.getAccount(address);
      },
      setAccount: (address, account) => inner.setAccount(address, account),
      async execute(transaction) {
        const execution = await inner.execute(transaction);
        gate ??= new Promise<void>((resolve) => (release = resolve));
        return execution;
      },
      simulate: (transaction) => inner.simulate(transaction),
      simulateAccounts: (transaction, addresses) => inner.simulateAccounts(transaction, addresses),
      advance: (clock) => inner.advance(clock),
      feeRules: () => inner.feeRules(),
      minimumBalanceForRentExemption: (dataLength) => inner.minimumBalanceForRentExemption(dataLength),
      programProblem: (elf) => inner.programProblem(elf),
      close: () => inner.close(),
    };
    return engine;
  };
  return {
    factory: gated,
    readingBack,
    open() {
      gate = null;
      release();
    },
  };
}
