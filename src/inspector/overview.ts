import { PublicKey } from '@solana/web3.js';
import type { components } from '../generated/relay.ts';
import type { EmulatorServices } from '../services.ts';
import { EMULATOR_VERSION } from '../version.ts';

export type Overview = components['schemas']['EmulatorOverview'];

/** The web UI's overview: where the emulator serves, its key, its fee payer's balance, its queue and clock. */
export async function overview(services: EmulatorServices): Promise<Overview> {
  const { config, ledger, queue, submissions } = services;
  const clock = ledger.clock();
  const feePayer = await ledger.getAccount(new PublicKey(config.feePayer));
  const transactions = { queued: 0, processed: 0, failed: 0 };
  for (const submission of submissions.all()) transactions[submission.status] += 1;
  return {
    version: EMULATOR_VERSION,
    baseUrl: config.baseUrl,
    rpcUrl: config.rpcUrl,
    uiUrl: config.uiUrl,
    apiKey: config.apiKey,
    feePayer: { address: config.feePayer, lamports: Number(feePayer?.lamports ?? 0n) },
    policyProfile: config.policyProfile,
    engine: config.engine,
    queue: queue.state(),
    clock: { slot: Number(clock.slot), blockHeight: Number(clock.blockHeight), unixTimestamp: Number(clock.unixTimestamp) },
    transactions,
  };
}
