/** Relay efficiency: relayed transfers against the same transfers sent straight to the bare engine (bench/relay-efficiency.ts). */
import { median, type Figure } from '../stats.ts';
import type { BenchEngine } from './shared.ts';

/** One paired round: the bare engine's transfers, then the relay's, moments apart. */
export interface TransferRound {
  transfers: number;
  relaySeconds: number;
  relayCpuMicros: number;
  bareSeconds: number;
  bareCpuMicros: number;
  /**
   * CPU microseconds per transfer of the relay's own ed25519 work alone, over the same
   * transactions: verifying the client's signature and signing as fee payer (src/base/crypto/ed25519.ts:
   * libsodium when it loads, else node:crypto).
   */
  signatureCpuMicros: number;
}

/** Pre-built transfers relayed through the whole emulator against the same straight to the bare engine. */
export interface RelayEfficiencyMeasurement {
  engine: BenchEngine;
  rounds: TransferRound[];
}

/** Relayed transfers a second that the LiteSVM engine must reach in process. */
export const LITESVM_RELAYED_PER_SECOND = 400;

/**
 * Two figures per engine: relay efficiency (relayed ÷ bare, the median of per-round ratios; at
 * least 0.8 on LiteSVM) and relayed transfers a second (at least 400 on LiteSVM). bankrun's
 * are reported beside them.
 */
export function relayEfficiencyFigures({ engine, rounds }: RelayEfficiencyMeasurement): Figure[] {
  const relayRates = rounds.map((round) => round.transfers / round.relaySeconds);
  const bareRates = rounds.map((round) => round.transfers / round.bareSeconds);
  const ratios = relayRates.map((rate, index) => rate / bareRates[index]!);
  const ratio = median(ratios);
  const relayRate = median(relayRates);
  const cpu = (micros: number[]) => `${median(micros).toFixed(0)} µs CPU/transfer`;
  // The most any relay that verifies and signs as the emulator does could reach with nothing else to do.
  const ceiling = median(rounds.map((round) => round.bareCpuMicros / (round.bareCpuMicros + round.signatureCpuMicros)));
  const signatures = median(rounds.map((round) => round.signatureCpuMicros));
  const litesvm = engine === 'litesvm';
  return [
    {
      name: `relay efficiency, ${engine} (transfers/s)`,
      measured: `${relayRate.toFixed(0)}/s relayed, ${cpu(rounds.map((round) => round.relayCpuMicros))}`,
      baseline: `${median(bareRates).toFixed(0)}/s bare ${engine}, ${cpu(rounds.map((round) => round.bareCpuMicros))}`,
      ratio,
      target: litesvm ? '≥ 0.8' : 'report',
      meets: litesvm ? ratio >= 0.8 : null,
      note:
        `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}; ` +
        `ceiling of a relay that verifies the client's signature and signs as fee payer (${signatures.toFixed(0)} µs CPU/transfer, ` +
        `src/base/crypto/ed25519.ts) and does nothing else: ` +
        `bare CPU ÷ (bare CPU + that) = ${ceiling.toFixed(2)}`,
    },
    {
      name: `relayed transfers/s in process, ${engine}`,
      measured: `${relayRate.toFixed(0)}/s`,
      baseline: `${LITESVM_RELAYED_PER_SECOND}/s`,
      ratio: relayRate / LITESVM_RELAYED_PER_SECOND,
      target: litesvm ? '≥ 1' : 'report',
      meets: litesvm ? relayRate >= LITESVM_RELAYED_PER_SECOND : null,
    },
  ];
}
