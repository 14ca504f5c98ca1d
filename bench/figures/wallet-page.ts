/** A Playwright test's added time for relay-emulator/playwright's fixture (bench/wallet-page.ts). */
import { median, type Figure } from '../stats.ts';

/** Milliseconds per round: a bare page opened on the dapp, and the same with what the fixture adds before it. */
export interface WalletPageMeasurement {
  bareMs: number[];
  fixtureMs: number[];
  /** The fixture's per-test part alone (reset, wallet injection), the worker's emulator already up. */
  perTestMs: number[];
}

export function walletPageFigures({ bareMs, fixtureMs, perTestMs }: WalletPageMeasurement): Figure[] {
  const ratio = (side: number[]) => median(side.map((ms, round) => ms / bareMs[round]!));
  return [
    {
      name: 'a Playwright test with the fixture, first of its worker (emulator start, reset, wallet, page)',
      measured: `${median(fixtureMs).toFixed(1)} ms`,
      baseline: `${median(bareMs).toFixed(1)} ms bare page on the dapp`,
      ratio: ratio(fixtureMs),
      target: 'report',
      meets: null,
    },
    {
      name: 'a Playwright test with the fixture, its worker’s emulator up (reset, wallet, page)',
      measured: `${median(perTestMs).toFixed(1)} ms`,
      baseline: `${median(bareMs).toFixed(1)} ms bare page on the dapp`,
      ratio: ratio(perTestMs),
      target: '≤ 3',
      meets: ratio(perTestMs) <= 3,
    },
  ];
}
