import { basename } from 'node:path';
import { PublicKey } from '@solana/web3.js';
import type { components } from '../../../generated/relay.ts';
import type { UiDeps } from '../ui-deps.ts';
import { PROGRAMS } from '../../../domain/relay/programs.ts';
import { EMULATOR_VERSION } from '../../../base/version.ts';

const PROGRAM_NAMES: Record<keyof typeof PROGRAMS, string> = {
  system: 'System Program',
  token: 'SPL Token',
  token2022: 'Token-2022',
  associatedToken: 'Associated Token Account',
  computeBudget: 'Compute Budget',
  memoV1: 'Memo v1',
  memo: 'Memo',
};

/** Names the page shows before addresses: the programs (an app’s by its IDL’s name, else its .so’s), the fixture mints' symbols, the fixture keys. */
function addressNames(fixtures: UiDeps['fixtures'], programs: UiDeps['programs']): Record<string, string> {
  const names: Record<string, string> = {};
  for (const [key, program] of Object.entries(PROGRAMS)) names[program.toBase58()] = PROGRAM_NAMES[key as keyof typeof PROGRAMS];
  for (const program of programs.list()) {
    const name = program.idl ?? (program.path === null ? null : basename(program.path).replace(/\.(so|json)$/, ''));
    if (name !== null) names[program.programId] = name;
  }
  for (const mint of fixtures.mints) names[mint.address] = mint.symbol;
  for (const wallet of fixtures.wallets) names[wallet.publicKey] = wallet.name;
  names[fixtures.relay.feePayer.publicKey] = 'fee payer';
  names[fixtures.relay.faucet.publicKey] = 'faucet';
  names[fixtures.relay.mintAuthority.publicKey] = 'mint authority';
  return names;
}

export type Overview = components['schemas']['EmulatorOverview'];

/** The web UI's overview: where the emulator serves, its key, its fee payer's balance, its queue and clock. */
export async function overview(deps: UiDeps): Promise<Overview> {
  const { config, ledger, queue, submissions } = deps;
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
    programs: deps.programs.list().map(({ programId, loader, origin }) => ({ programId, loader, origin })),
    names: addressNames(deps.fixtures, deps.programs),
  };
}
