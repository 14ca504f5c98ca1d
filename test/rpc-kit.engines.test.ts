/**
 * Unmodified @solana/kit (2.x) against the emulator's RPC through MSW. kit calls `fetch` when it
 * sends, so the harness's MSW server intercepts it, and kit reads u64 values as bigints: the
 * endpoint writes them as exact integers (lamports above 2^53, rentEpoch u64::MAX).
 */
import { address, createSolanaRpc, devnet, lamports, type Base64EncodedWireTransaction, type Signature, type TransactionMessageBytesBase64 } from '@solana/kit';
import { LAMPORTS_PER_SOL } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, USDC, ata, build, transferInstruction } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

describe('@solana/kit createSolanaRpc against RpcUrl', () => {
  let h: Harness;
  let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>;
  const specChecks: Promise<unknown>[] = [];

  beforeAll(async () => {
    h = await startHarness();
    h.emulator.observe(({ api, response }) => {
      if (api === 'rpc') specChecks.push(assertFetchResponseMatchesSpec('post', '/rpc', response.clone()));
    });
    const { body: config } = await h.call('GET', '/Transaction/config');
    // RpcEnvironment is devnet, so the devnet API (requestAirdrop included) is the right type.
    rpc = createSolanaRpc(devnet(config.RpcUrl), { headers: { Authorization: `Bearer ${config.Token}` } });
  });
  afterAll(async () => {
    await Promise.all(specChecks);
    await h.close();
  });

  it('reads chain state', async () => {
    const clock = h.emulator.services.ledger.clock();
    expect(await rpc.getSlot({ commitment: 'confirmed' }).send()).toBe(clock.slot);
    expect(await rpc.getBlockHeight().send()).toBe(clock.blockHeight);
    expect(await rpc.getHealth().send()).toBe('ok');
    expect(await rpc.getGenesisHash().send()).toBe(h.emulator.services.ledger.genesisHash);
    expect(await rpc.getVersion().send()).toMatchObject({ 'solana-core': '4.1.0' });
    expect(await rpc.getEpochInfo().send()).toMatchObject({ absoluteSlot: clock.slot, epoch: 0n, slotsInEpoch: 432_000n });
    const { value } = await rpc.getLatestBlockhash().send();
    expect(h.emulator.services.ledger.isBlockhashValid(value.blockhash)).toBe(true);
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n);
  });

  it('reads accounts and tokens, with u64 values exact', async () => {
    const faucet = address(h.emulator.services.fixtures.relay.faucet.publicKey);
    const owner = newKeypair().publicKey;
    const airdrop = await rpc.requestAirdrop(address(owner.toBase58()), lamports(1_000_000_000n)).send();
    await h.emulator.settle();
    // 500000000000000000 − 1 SOL − 5000 has no exact double: only an exact integer literal survives.
    expect((await rpc.getBalance(faucet).send()).value).toBe(499_999_998_999_995_000n);
    expect((await rpc.getBalance(address(owner.toBase58())).send()).value).toBe(1_000_000_000n);

    const info = (await rpc.getAccountInfo(address(ata(ALICE.publicKey).toBase58()), { encoding: 'base64' }).send()).value!;
    expect(info.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    // kit 8 no longer types rentEpoch; the validator still sends it, as u64::MAX for a rent-exempt account.
    expect((info as unknown as { rentEpoch: bigint }).rentEpoch).toBe(18_446_744_073_709_551_615n);
    expect(info.space).toBe(165n);
    expect(Buffer.from(info.data[0], 'base64').subarray(0, 32)).toEqual(Buffer.from(USDC.toBytes()));

    const balance = await rpc.getTokenAccountBalance(address(ata(ALICE.publicKey).toBase58())).send();
    expect(balance.value).toEqual({ amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' });
    const supply = await rpc.getTokenSupply(address(USDC.toBase58())).send();
    expect(supply.value.decimals).toBe(6);
    const accounts = await rpc.getMultipleAccounts([faucet, address(newKeypair().publicKey.toBase58())], { encoding: 'base64' }).send();
    expect(accounts.value[0]?.lamports).toBe(499_999_998_999_995_000n);
    expect(accounts.value[1]).toBeNull();

    const statuses = await rpc.getSignatureStatuses([airdrop]).send();
    expect(statuses.value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const tx = (await rpc.getTransaction(airdrop, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect(tx.meta?.err).toBeNull();
    expect(tx.transaction.message.accountKeys[0]).toBe(faucet);
    expect(tx.meta?.preBalances[0]).toBe(500_000_000_000_000_000n);
  });

  it('sends a transaction directly and reads it back', async () => {
    const payer = newKeypair();
    await rpc.requestAirdrop(address(payer.publicKey.toBase58()), lamports(BigInt(LAMPORTS_PER_SOL))).send();
    await h.emulator.settle();
    const { value } = await rpc.getLatestBlockhash().send();
    // Alice's tokens, paid by the funded payer: a direct send, not a relay.
    const wire = build({
      instructions: [transferInstruction(ALICE, payer.publicKey, 1n)],
      blockhash: value.blockhash,
      signers: [payer, ALICE],
      feePayer: payer.publicKey,
    });
    const simulation = await rpc.simulateTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', sigVerify: true }).send();
    // The payer has no USDC account yet: the Token program refuses, and the logs say why.
    expect(simulation.value.err).toEqual({ InstructionError: [0n, 'InvalidAccountData'] });
    expect(simulation.value.logs?.length).toBeGreaterThan(0);
    const fee = await rpc
      .getFeeForMessage(Buffer.from(Buffer.from(wire, 'base64').subarray(1 + 64 * 2)).toString('base64') as TransactionMessageBytesBase64)
      .send();
    expect(fee.value).toBe(10_000n);
    const fees = await rpc.getRecentPrioritizationFees().send();
    expect(fees.at(-1)).toEqual({ slot: h.emulator.services.ledger.clock().slot, prioritizationFee: 0n });
    const unknown = bs58.encode(Buffer.alloc(64, 9)) as Signature;
    expect(await rpc.getTransaction(unknown).send()).toBeNull();
    await expect(rpc.getTransaction(newKeypair().publicKey.toBase58() as Signature).send()).rejects.toThrow(/Invalid param/);
  });

  // Last: it warps the ledger two epochs ahead.
  it('reports the epoch the Clock sysvar holds, before and after a warp across epochs', async () => {
    const clockSysvar = async () => {
      const data = Buffer.from(
        (await rpc.getAccountInfo(address('SysvarC1ock11111111111111111111111111111111'), { encoding: 'base64' }).send()).value!.data[0],
        'base64',
      );
      return {
        slot: data.readBigUInt64LE(0),
        epochStartTimestamp: data.readBigInt64LE(8),
        epoch: data.readBigUInt64LE(16),
        leaderScheduleEpoch: data.readBigUInt64LE(24),
        unixTimestamp: data.readBigInt64LE(32),
      };
    };
    const before = await rpc.getEpochInfo().send();
    expect(before.epoch).toBe((await clockSysvar()).epoch);
    expect(before.epoch).toBe(0n);

    await h.emulator.warp({ slot: 2 * 432_000 + 5 });
    const info = await rpc.getEpochInfo().send();
    const sysvar = await clockSysvar();
    expect(info).toMatchObject({ absoluteSlot: 864_005n, epoch: 2n, slotIndex: 5n, slotsInEpoch: 432_000n });
    expect(sysvar).toEqual({
      slot: 864_005n,
      epoch: info.epoch,
      leaderScheduleEpoch: 3n,
      // The epoch began at its first slot; the clock is at this one.
      epochStartTimestamp: BigInt(await rpc.getBlockTime(864_000n).send()),
      unixTimestamp: BigInt(await rpc.getBlockTime(864_005n).send()),
    });
    expect(await rpc.getEpochSchedule().send()).toEqual({
      firstNormalEpoch: 0n,
      firstNormalSlot: 0n,
      leaderScheduleSlotOffset: 432_000n,
      slotsPerEpoch: 432_000n,
      warmup: false,
    });
  });
});
