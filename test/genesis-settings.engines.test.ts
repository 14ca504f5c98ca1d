/**
 * Issue 42: what solana-test-validator's genesis flags set, as option `genesis` takes them (the
 * `test-validator` command passes them): the mint's 500,000,000 SOL, epochs of --slots-per-epoch
 * slots (the schedule, its sysvar, the Clock's epoch, the RPC's answers), the first slot
 * (--warp-slot), the compute-unit limit, and each refused in one line when no genesis could hold it.
 */
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { type Rpc, rpcAt } from './support/json-rpc.ts';

const MINT = Keypair.generate().publicKey.toBase58();
const SOL = 1_000_000_000n;
const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const STAKE = new PublicKey('Stake11111111111111111111111111111111111111');

describe('genesis settings', () => {
  let emulator: RelayEmulator;
  let rpc: Rpc;
  beforeAll(async () => {
    emulator = await createRelayEmulator({
      genesis: { fund: [{ address: MINT, lamports: 500_000_000n * SOL }], slotsPerEpoch: 64, warpSlot: 1000, computeUnitLimit: 300 },
    });
    rpc = rpcAt(emulator.config.rpcUrl);
  });
  afterAll(() => emulator.close());

  it('funds the mint at genesis, and keeps it through reset', async () => {
    expect(await rpc('getBalance', [MINT])).toMatchObject({ value: Number(500_000_000n * SOL) });
    await emulator.setAccount(MINT, { lamports: 1n, owner: SystemProgram.programId.toBase58(), data: new Uint8Array(), executable: false });
    await emulator.reset();
    expect(await rpc('getBalance', [MINT])).toMatchObject({ value: Number(500_000_000n * SOL) });
  });

  it('starts at the warp slot, in epochs of 64 slots, as the RPC, the Clock and the EpochSchedule sysvar say', async () => {
    const info = await rpc('getEpochInfo');
    expect(info.absoluteSlot).toBeGreaterThanOrEqual(1000);
    expect(info).toMatchObject({ epoch: Math.floor(info.absoluteSlot / 64), slotIndex: info.absoluteSlot % 64, slotsInEpoch: 64 });
    expect(await rpc('getEpochSchedule')).toEqual({ firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: 64, slotsPerEpoch: 64, warmup: false });
    const sysvar = await rpc('getAccountInfo', ['SysvarEpochSchedu1e111111111111111111111111', { encoding: 'base64' }]);
    expect(Buffer.from(sysvar.value.data[0], 'base64').readBigUInt64LE(0)).toBe(64n);
    const clock = await rpc('getAccountInfo', ['SysvarC1ock11111111111111111111111111111111', { encoding: 'base64' }]);
    // Clock: slot, epoch start timestamp, epoch (the third u64).
    expect(Number(Buffer.from(clock.value.data[0], 'base64').readBigUInt64LE(16))).toBe(info.epoch);
  });

  it('holds every transaction to the compute-unit limit', async () => {
    // A memo of 200 characters costs the Memo program 400 units (litesvm; more on bankrun's older build), past the limit of 300.
    const payer = Keypair.generate();
    await emulator.faucet({ address: payer.publicKey, lamports: SOL });
    const { value } = await rpc('getLatestBlockhash');
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight });
    tx.add(new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from('m'.repeat(200)) }));
    tx.sign(payer);
    const simulated = await rpc('simulateTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }]);
    expect(JSON.stringify(simulated.value.err)).toMatch(/ComputationalBudgetExceeded|ProgramFailedToComplete/);
    expect(simulated.value.logs.join('\n')).toMatch(/consumed \d+ of 300 compute units/);
  });
});

describe('genesis settings that no genesis holds', () => {
  const cases: [Parameters<typeof createRelayEmulator>[0], RegExp][] = [
    [{ genesis: { slotsPerEpoch: 31 } }, /^--slots-per-epoch must be a whole number of at least 32, not 31$/],
    [{ genesis: { computeUnitLimit: 0 } }, /^--compute-unit-limit must be a whole number of at least 1, not 0$/],
    [{ genesis: { deactivateFeatures: ['nope'] } }, /^--deactivate-feature takes a feature id \(a base58 address\), not "nope"$/],
    [{ genesis: { fund: [{ address: 'x', lamports: 1 }] } }, /^--mint takes an address \(base58\), not "x"$/],
  ];
  it('are refused in one line naming the flag', async () => {
    for (const [options, message] of cases) {
      const error = await createRelayEmulator({ ...options, loopback: false }).then(
        () => null,
        (thrown: unknown) => thrown as Error & { code: string },
      );
      expect(error?.code).toBe('GENESIS_INVALID');
      expect(error!.message).toMatch(message);
    }
  });
});

describe('--deactivate-feature (option genesis.deactivateFeatures)', () => {
  // The runtime's feature set is the engine's: LiteSVM 1.5 runs the stake program as mainnet's core BPF build, which
  // runs under the features it is given. bankrun's 1.18 runtime takes the flag too, with other programs.
  it.runIf((process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm') === 'litesvm')('reaches the runtime: a feature turned off changes how a program runs', async () => {
    const MOVE_LAMPORTS = 17;
    const errorWith = async (deactivateFeatures: string[]) => {
      const emulator = await createRelayEmulator({ genesis: { deactivateFeatures } });
      try {
        const payer = Keypair.generate();
        await emulator.faucet({ address: payer.publicKey, lamports: SOL });
        const rpc = rpcAt(emulator.config.rpcUrl);
        const { value } = await rpc('getLatestBlockhash');
        const data = Buffer.alloc(12);
        data.writeUInt32LE(MOVE_LAMPORTS, 0);
        data.writeBigUInt64LE(1n, 4);
        const keys = [Keypair.generate().publicKey, Keypair.generate().publicKey].map((pubkey) => ({ pubkey, isSigner: false, isWritable: true }));
        const tx = new Transaction({ feePayer: payer.publicKey, blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight });
        tx.add(new TransactionInstruction({ programId: STAKE, keys: [...keys, { pubkey: payer.publicKey, isSigner: true, isWritable: false }], data }));
        tx.sign(payer);
        return JSON.stringify((await rpc('simulateTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }])).value.err);
      } finally {
        await emulator.close();
      }
    };
    // With mainnet's features the stake program reads its accounts (and refuses them: not stake accounts) ...
    expect(await errorWith([])).toBe('{"InstructionError":[0,"InvalidAccountOwner"]}');
    // ... and with feature 7bTK6Jis… off, the runtime sets the program up differently, and it never gets that far.
    expect(await errorWith(['7bTK6Jis8Xpfrs8ZoUfiMDPazTcdPcTWheZFJTA5Z6X4'])).not.toBe('{"InstructionError":[0,"InvalidAccountOwner"]}');
  });
});
