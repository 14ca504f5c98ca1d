/**
 * Relay efficiency, per engine: relayed USDC transfers through the whole in-process path
 * (emulator.fetch → binding → checks → fee-payer signature → queue → ledger → settle()), against
 * the same transfers processed straight by the bare engine (bench/bare-engines.ts).
 *
 * Every transaction is built and signed, and its Request made, before its round is timed (the
 * client's work excluded). A round is at most 100 transfers, so that a relayed round's blockhash,
 * fetched before building, is still valid at its last transfer (150 blocks). Each round times the bare engine, then the
 * relay, moments apart. CPU time per transfer (user + system) is measured beside wall time: on a
 * busy machine it says more.
 */
import { createRelayEmulator } from '../src/index.ts';
import type { EngineName } from '../src/domain/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';
import type { RelayEfficiencyMeasurement, TransferRound } from './figures.ts';
import { relaySignatureWork, transferBytes } from './transfers.ts';

export interface ThroughputSizes {
  rounds: number;
  perRound: number;
}

async function timed(count: number, work: () => Promise<void>): Promise<{ seconds: number; cpuMicros: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuMicros: (used.user + used.system) / count };
}

/** Times paired rounds; relayEfficiencyFigures (figures.ts) makes the figures. */
export async function measureRelayEfficiency(engine: EngineName, sizes: ThroughputSizes): Promise<RelayEfficiencyMeasurement> {
  const bare = await startBareEngine(engine);
  const emulator = await createRelayEmulator({ engine });
  const url = `${emulator.config.baseUrl}/Transaction/send`;
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  const rounds: TransferRound[] = [];
  for (let round = 0; round < sizes.rounds; round += 1) {
    const bareHash = await bare.latestBlockhash();
    const prepared = Array.from({ length: sizes.perRound }, () => bare.prepare(transferBytes(bareHash, { feePayerSigns: true })));
    const bareSide = await timed(sizes.perRound, async () => {
      for (const tx of prepared) await bare.process(tx);
    });

    const { blockhash } = await emulator.services.ledger.latestBlockhash();
    const relayed = Array.from({ length: sizes.perRound }, () => transferBytes(blockhash, { feePayerSigns: false }));
    const bodies = relayed.map((bytes) => JSON.stringify({ signedTransaction: Buffer.from(bytes).toString('base64') }));
    // The client's requests are built before the round too: a fetch Request with a body costs ~46 µs
    // of CPU to construct on Node 20 (undici makes its ReadableStream), which is the caller's work.
    const requests = bodies.map((body) => new Request(url, { method: 'POST', headers, body }));
    const relaySide = await timed(sizes.perRound, async () => {
      for (const request of requests) {
        const response = await emulator.fetch(request);
        if (response.status !== 200) throw new Error(`relay refused a transfer: ${await response.text()}`);
      }
      await emulator.settle();
    });
    const signatures = await timed(sizes.perRound, async () => {
      for (const bytes of relayed) relaySignatureWork(bytes);
    });
    rounds.push({
      transfers: sizes.perRound,
      relaySeconds: relaySide.seconds,
      relayCpuMicros: relaySide.cpuMicros,
      bareSeconds: bareSide.seconds,
      bareCpuMicros: bareSide.cpuMicros,
      signatureCpuMicros: signatures.cpuMicros,
    });
  }
  const failed = emulator.services.submissions.all().filter((record) => record.status !== 'processed');
  if (failed.length > 0) throw new Error(`${failed.length} relayed transfers did not succeed on ${engine}`);
  await emulator.close();
  return { engine, rounds };
}
