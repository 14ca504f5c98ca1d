/**
 * Relay efficiency, per engine: relayed USDC transfers per second through the whole in-process
 * path (emulator.fetch → binding → checks → fee-payer signature → queue → ledger → settle()),
 * against the same transfers processed straight by the bare engine (bench/bare-engines.ts).
 *
 * Every transaction is built and signed before its round is timed (client signing excluded). A
 * round is at most 100 transfers, so that a relayed round's blockhash, fetched before building,
 * is still valid at its last transfer (150 blocks). Each round times the bare engine, then the
 * relay, moments apart; the figure is the median of the per-round ratios. CPU time per transfer
 * (user + system) is given beside the rates: on a busy machine it says more than wall time.
 */
import { createRelayEmulator } from '../src/index.ts';
import type { EngineName } from '../src/ledger/engines.ts';
import { startBareEngine } from './bare-engines.ts';
import { median, type Figure } from './stats.ts';
import { transferBytes } from './transfers.ts';

export interface ThroughputSizes {
  rounds: number;
  perRound: number;
}

interface Side {
  rate: number;
  cpuMicros: number;
}

async function timed(count: number, work: () => Promise<void>): Promise<Side> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rate: count / seconds, cpuMicros: (used.user + used.system) / count };
}

export async function relayEfficiency(engine: EngineName, sizes: ThroughputSizes): Promise<Figure[]> {
  const bare = await startBareEngine(engine);
  const emulator = await createRelayEmulator({ engine });
  const url = `${emulator.config.baseUrl}/Transaction/send`;
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  const bareSides: Side[] = [];
  const relaySides: Side[] = [];
  for (let round = 0; round < sizes.rounds; round += 1) {
    const bareHash = await bare.latestBlockhash();
    const prepared = Array.from({ length: sizes.perRound }, () => bare.prepare(transferBytes(bareHash, { feePayerSigns: true })));
    bareSides.push(
      await timed(sizes.perRound, async () => {
        for (const tx of prepared) await bare.process(tx);
      }),
    );

    const { blockhash } = await emulator.services.ledger.latestBlockhash();
    const bodies = Array.from({ length: sizes.perRound }, () => JSON.stringify({ signedTransaction: Buffer.from(transferBytes(blockhash, { feePayerSigns: false })).toString('base64') }));
    relaySides.push(
      await timed(sizes.perRound, async () => {
        for (const body of bodies) {
          const response = await emulator.fetch(new Request(url, { method: 'POST', headers, body }));
          if (response.status !== 200) throw new Error(`relay refused a transfer: ${await response.text()}`);
        }
        await emulator.settle();
      }),
    );
  }
  const failed = emulator.services.records.all().filter((record) => record.status !== 'processed');
  if (failed.length > 0) throw new Error(`${failed.length} relayed transfers did not succeed on ${engine}`);
  await emulator.close();

  const ratio = median(relaySides.map((side, round) => side.rate / bareSides[round]!.rate));
  const relayRate = median(relaySides.map((side) => side.rate));
  const bareRate = median(bareSides.map((side) => side.rate));
  const cpu = (sides: Side[]) => `${median(sides.map((side) => side.cpuMicros)).toFixed(0)} µs CPU/transfer`;
  const litesvm = engine === 'litesvm';
  return [
    {
      name: `relay efficiency, ${engine} (transfers/s)`,
      measured: `${relayRate.toFixed(0)}/s relayed, ${cpu(relaySides)}`,
      baseline: `${bareRate.toFixed(0)}/s bare ${engine}, ${cpu(bareSides)}`,
      ratio,
      target: litesvm ? '≥ 0.8' : 'report',
      meets: litesvm ? ratio >= 0.8 : null,
      note: `paired ratios by round: ${relaySides.map((side, round) => (side.rate / bareSides[round]!.rate).toFixed(2)).join(', ')}`,
    },
    {
      name: `relayed transfers/s in process, ${engine}`,
      measured: `${relayRate.toFixed(0)}/s`,
      baseline: '400/s',
      ratio: relayRate / 400,
      target: litesvm ? '≥ 1 (400/s)' : 'report',
      meets: litesvm ? relayRate >= 400 : null,
    },
  ];
}
