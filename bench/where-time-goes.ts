/**
 * Where the CPU time of one relayed transfer goes, per engine (user + system CPU, µs per transfer:
 * on a busy machine wall time mostly measures the neighbours).
 *
 * The whole call (emulator.fetch → settle(), pre-built transactions) is measured once; during it
 * the engine's execute and account reads, the record store and the history index are timed in
 * place (instrumented instances). The pure stages — decode, signature check, fee-payer signature,
 * policy — are timed on their own over copies of the same transactions. What is left of the whole
 * is the plumbing: fetch, binding, routing, JSON, journal, queue and the ledger's bookkeeping.
 */
import { createRelayEmulator } from '../src/index.ts';
import { createEd25519Signer } from '../src/base/crypto/ed25519.ts';
import { keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import type { EngineFactory, LedgerEngine } from '../src/domain/ledger/engine.ts';
import { ENGINES, type EngineName } from '../src/domain/ledger/engines.ts';
import { checkPolicy } from '../src/domain/relay/policy.ts';
import { resolvePolicy } from '../src/domain/relay/policy-options.ts';
import { checkSignatures, signAsFeePayer } from '../src/domain/relay/signatures.ts';
import { decodeWireTransaction } from '../src/domain/relay/wire.ts';
import type { StageMeasurement } from './figures.ts';
import { transferBytes } from './transfers.ts';

class CpuMeter {
  readonly totals = new Map<string, number>();
  #depth = 0;
  time<T>(stage: string, work: () => T): T {
    // Nested timings (an engine read inside a timed store call) count once, in the outer stage.
    if (this.#depth > 0) return work();
    this.#depth += 1;
    const started = process.cpuUsage();
    try {
      return work();
    } finally {
      this.#depth -= 1;
      const used = process.cpuUsage(started);
      this.totals.set(stage, (this.totals.get(stage) ?? 0) + used.user + used.system);
    }
  }
  async timeAsync<T>(stage: string, work: () => Promise<T>): Promise<T> {
    const started = process.cpuUsage();
    const value = await work();
    const used = process.cpuUsage(started);
    this.totals.set(stage, (this.totals.get(stage) ?? 0) + used.user + used.system);
    return value;
  }
}

/** An engine whose execute and account reads are timed (the synchronous part of each call). */
function metered(factory: EngineFactory, meter: CpuMeter): EngineFactory {
  return async (genesis) => {
    const engine: LedgerEngine = await factory(genesis);
    const execute = engine.execute.bind(engine);
    const getAccount = engine.getAccount.bind(engine);
    return Object.assign(engine, {
      execute: (transaction: Parameters<LedgerEngine['execute']>[0]) => meter.time('ledger: engine execute', () => execute(transaction)),
      getAccount: (address: Parameters<LedgerEngine['getAccount']>[0]) => meter.time('ledger: engine account reads', () => getAccount(address)),
    });
  };
}

/** Times `count` relayed transfers and their stages; stageBreakdown (figures.ts) makes the table. */
export async function measureStages(engine: EngineName, count: number): Promise<StageMeasurement> {
  const fixtures = loadFixtures();
  const signer = createEd25519Signer(keypairOf(fixtures.relay.feePayer).secretKey);
  const meter = new CpuMeter();
  const emulator = await createRelayEmulator({ engine: metered(ENGINES[engine], meter) });
  const { ledger, submissions: records, history } = emulator.services;
  for (const method of ['insert', 'update'] as const) {
    const original = records[method].bind(records) as unknown as (...args: unknown[]) => unknown;
    Object.assign(records, { [method]: (...args: unknown[]) => meter.time('store: submissions', () => original(...args)) });
  }
  const add = history.add.bind(history);
  Object.assign(history, { add: (...args: Parameters<typeof add>) => meter.time('store: history index', () => add(...args)) });

  const url = `${emulator.config.baseUrl}/Transaction/send`;
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  const policy = resolvePolicy();
  let whole = 0;
  for (let done = 0; done < count; ) {
    const size = Math.min(100, count - done);
    const { blockhash } = await ledger.latestBlockhash();
    const base64 = Array.from({ length: size }, () => Buffer.from(transferBytes(blockhash, { feePayerSigns: false })).toString('base64'));
    // Requests made before timing, as in relay-efficiency.ts: constructing one is the caller's work.
    const requests = base64.map((signedTransaction) => new Request(url, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) }));
    const started = process.cpuUsage();
    for (const request of requests) {
      const response = await emulator.fetch(request);
      if (response.status !== 200) throw new Error(`relay refused a transfer: ${await response.text()}`);
    }
    await emulator.settle();
    const used = process.cpuUsage(started);
    whole += used.user + used.system;

    // The pure stages on their own, over the same transactions.
    for (const text of base64) {
      const wire = meter.time('relay: decode (base64, parse, sanitize)', () => decodeWireTransaction(text));
      meter.time('relay: verify client signature (ed25519)', () => checkSignatures(wire, signer.publicKey, { maxSignatures: policy.maxSignatures }));
      meter.time('relay: fee-payer signature (ed25519)', () => signAsFeePayer(wire, signer));
      await meter.timeAsync('relay: policy', () =>
        checkPolicy(wire.tx, {
          feePayer: wire.feePayer,
          operation: 'send',
          options: policy,
          getAccount: (address) => ledger.getAccount(address),
          appPrograms: new Set<string>(),
          tokenAccountRent: 2_039_280n,
        }),
      );
    }
    done += size;
  }
  await emulator.close();

  return { engine, calls: count, totalMicros: meter.totals, wholeMicros: whole };
}
