/**
 * Issue 51, causes 2, 3 and 5: accounts as a validator stores and shows them. The accounts are
 * kit's validator fixtures (test/fixtures/kit-accounts: mainnet vote, stake, config and loader
 * accounts), loaded with `--account-dir` as kit's CI loads them; the expected answers are Agave
 * 4.1's (its account-decoder), as kit's own RPC tests hold them.
 */
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { rpcAt, type Rpc } from './support/json-rpc.ts';

const KIT_ACCOUNTS = fileURLToPath(new URL('./fixtures/kit-accounts/', import.meta.url));

describe('accounts as a validator stores and parses them', () => {
  let emulator: RelayEmulator;
  let rpc: Rpc;
  const parsed = async (address: string) => (await rpc('getAccountInfo', [address, { encoding: 'jsonParsed' }])).value;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ accountDirs: [KIT_ACCOUNTS] });
    rpc = rpcAt(emulator.config.rpcUrl);
  });
  afterAll(() => emulator.close());

  it('keeps a dump’s rent epoch until a transaction writes the account, then reports u64::MAX', async () => {
    const mint = 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr';
    expect((await rpc('getAccountInfo', [mint, { encoding: 'base64' }])).value.rentEpoch).toBe(0);
    // A dump that says u64::MAX keeps it exactly.
    expect((await rpc('getAccountInfo', ['GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G', { encoding: 'base64' }])).value.rentEpoch).toBe(18446744073709552000);
    // A transaction that writes it (a lamport in): the validator rewrites its rent epoch.
    const payer = Keypair.generate();
    await emulator.faucet({ address: payer.publicKey.toBase58(), lamports: 1_000_000_000 });
    const { blockhash } = (await rpc('getLatestBlockhash')).value;
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 0 });
    tx.add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: new PublicKey(mint), lamports: 1 }));
    tx.sign(payer);
    const signature = await rpc('sendTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }]);
    await emulator.settle();
    expect((await rpc('getSignatureStatuses', [[signature]])).value[0].err).toBe(null);
    expect((await rpc('getAccountInfo', [mint, { encoding: 'base64' }])).value).toMatchObject({ lamports: 10290816, rentEpoch: 18446744073709552000 });
  });

  it('parses a vote account as Agave 4.1 does, its V3 state seen as V4', async () => {
    const vote = await parsed('4QUZQ4c7bZuJ4o4L8tYAEGnePFV27SUFEVmC7BYfsXRp');
    expect(vote.data.program).toBe('vote');
    expect(vote.data.space).toBe(3762);
    expect(vote.data.parsed.type).toBe('vote');
    expect(vote.data.parsed.info).toMatchObject({
      authorizedVoters: [{ authorizedVoter: 'HMU77m6WSL9Xew9YvVCgz1hLuhzamz74eD9avi4XPdr', epoch: 656 }],
      authorizedWithdrawer: 'HMU77m6WSL9Xew9YvVCgz1hLuhzamz74eD9avi4XPdr',
      nodePubkey: 'HMU77m6WSL9Xew9YvVCgz1hLuhzamz74eD9avi4XPdr',
      commission: 50,
      inflationRewardsCommissionBps: 5000,
      blockRevenueCommissionBps: 10_000,
      blockRevenueCollector: 'HMU77m6WSL9Xew9YvVCgz1hLuhzamz74eD9avi4XPdr',
      inflationRewardsCollector: '4QUZQ4c7bZuJ4o4L8tYAEGnePFV27SUFEVmC7BYfsXRp',
      pendingDelegatorRewards: '0',
      blsPubkeyCompressed: null,
      priorVoters: [],
      rootSlot: 283619407,
      lastTimestamp: { slot: 283619438, timestamp: 1709828565 },
    });
    expect(vote.data.parsed.info.epochCredits).toContainEqual({ credits: '117764802', epoch: 593, previousCredits: '117762806' });
    expect(vote.data.parsed.info.votes[0]).toEqual({ slot: expect.any(Number), confirmationCount: expect.any(Number), latency: expect.any(Number) });
  });

  it('parses a stake account without the delegation’s warmup rate (4.1)', async () => {
    const stake = await parsed('CSg2vQGbnwWdSyJpwK4i3qGfB6FebaV3xQTx4U1MbixN');
    expect(stake.data).toEqual({
      program: 'stake',
      space: 200,
      parsed: {
        type: 'delegated',
        info: {
          meta: {
            rentExemptReserve: '2282880',
            authorized: { staker: '3HRNKNXafhr3wE9NSXRpNVdFYt6EVygdqFwqf6WpG57V', withdrawer: '3HRNKNXafhr3wE9NSXRpNVdFYt6EVygdqFwqf6WpG57V' },
            lockup: { unixTimestamp: 0, epoch: 0, custodian: '11111111111111111111111111111111' },
          },
          stake: {
            delegation: { voter: 'CertusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu', stake: '8007935', activationEpoch: '386', deactivationEpoch: '471' },
            creditsObserved: 169965713,
          },
        },
      },
    });
  });

  it('parses validator info, an upgradeable program, and the rent sysvar; the stake config falls back to base64 (4.1)', async () => {
    expect((await parsed('FtLZBmDW4Y6WNTYYZv9AcC2nQupDMDzX5Q5mp5MLpmdY')).data).toEqual({
      program: 'config',
      space: 643,
      parsed: {
        type: 'validatorInfo',
        info: {
          configData: { name: 'HoldTheNode', website: 'https://holdthenode.com' },
          keys: [
            { pubkey: 'Va1idator1nfo111111111111111111111111111111', signer: false },
            { pubkey: '5hvJ19nRgtzAkosb5bcx9bqeN2QA1Qwxq4M349Q2L6s2', signer: true },
          ],
        },
      },
    });
    expect((await parsed('AfFRmCFz8yUWzug2jiRc13xEEzBwyxxYSRGVE5uQMpHk')).data).toEqual({
      program: 'bpf-upgradeable-loader',
      space: 36,
      parsed: { type: 'program', info: { programData: '3vnUTQbDuCgfVn7yQcigUwMQNGkLBZ7GfKWb3gYbAY23' } },
    });
    expect((await parsed('SysvarRent111111111111111111111111111111111')).data).toEqual({
      program: 'sysvar',
      space: 17,
      parsed: { type: 'rent', info: { lamportsPerByte: '6960' } },
    });
    expect((await parsed('StakeConfig11111111111111111111111111111111')).data).toEqual(['AAAAAAAAANA/DA==', 'base64']);
  });

  it('parses the clock, epoch schedule, slot hashes and slot history sysvars', async () => {
    const clock = (await parsed('SysvarC1ock11111111111111111111111111111111')).data.parsed;
    expect(clock).toEqual({
      type: 'clock',
      info: {
        slot: expect.any(Number),
        epoch: expect.any(Number),
        epochStartTimestamp: expect.any(Number),
        leaderScheduleEpoch: expect.any(Number),
        unixTimestamp: expect.any(Number),
      },
    });
    expect((await parsed('SysvarEpochSchedu1e111111111111111111111111')).data.parsed.type).toBe('epochSchedule');
    const hashes = (await parsed('SysvarS1otHashes111111111111111111111111111')).data.parsed;
    expect(hashes.type).toBe('slotHashes');
    expect(hashes.info[0]).toEqual({ slot: expect.any(Number), hash: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/) });
    const history = (await parsed('SysvarS1otHistory11111111111111111111111111')).data.parsed;
    expect(history.info.bits).toHaveLength(1024 * 1024);
    expect(history.info.bits).toMatch(/^[01]+$/);
  });

  it('writes base64+zstd as Agave’s streaming encoder frames it', async () => {
    const account = await rpc('getAccountInfo', ['GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G', { encoding: 'base64+zstd' }]);
    expect(account.value.data).toEqual(['KLUv/QBYSQAAdGVzdCBkYXRh', 'base64+zstd']);
  });
});
