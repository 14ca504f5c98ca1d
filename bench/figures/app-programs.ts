/** The app's own programs (issue 32): what loading Light Protocol's costs a start, and a relayed call to a loaded program. */
import { median, type Figure } from '../stats.ts';

export interface AppProgramsMeasurement {
  programs: number;
  accounts: number;
  /** Milliseconds to a first answer, per round: without the app's programs and accounts, then with them. */
  startup: { withoutMs: number[]; withMs: number[] };
  /** Seconds per round for the same number of relayed SPL transfers and relayed spl_noop calls, moments apart. */
  relay: { perRound: number; transferSeconds: number[]; callSeconds: number[] };
}

export function appProgramFigures({ programs, accounts, startup, relay }: AppProgramsMeasurement): Figure[] {
  const startupRatio = median(startup.withMs.map((ms, round) => ms / startup.withoutMs[round]!));
  // Calls a second over transfers a second, per round: the transfers' seconds over the calls'.
  const callRatio = median(relay.callSeconds.map((seconds, round) => relay.transferSeconds[round]! / seconds));
  return [
    {
      name: `start-up with ${programs} programs and ${accounts} account dumps, litesvm`,
      measured: `${median(startup.withMs).toFixed(1)} ms with them`,
      baseline: `${median(startup.withoutMs).toFixed(1)} ms without`,
      ratio: startupRatio,
      target: '≤ 1.5',
      meets: startupRatio <= 1.5,
    },
    {
      name: 'relayed calls of a loaded program (spl_noop) per relayed SPL transfer, litesvm',
      measured: `${(relay.perRound / median(relay.callSeconds)).toFixed(0)} calls/s`,
      baseline: `${(relay.perRound / median(relay.transferSeconds)).toFixed(0)} transfers/s`,
      ratio: callRatio,
      target: '≥ 0.8',
      meets: callRatio >= 0.8,
    },
  ];
}
