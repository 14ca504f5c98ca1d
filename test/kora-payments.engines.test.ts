import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { koraCaller, koraToml } from './support/kora.ts';
import { ALICE, ata, BOB, build, FEE_PAYER, transferInstruction, USDC } from './support/transactions.ts';

// Kora's prices (issue 27): the margin and fixed prices charge in tokens, priced by Kora's Mock
// oracle. The fixture USDC is devnet USDC (4zMMC…), which the oracle prices at 0.0001 SOL: with 6
// decimals, ten base units are one lamport. Kora signs only what carries the payment.
const signersFile = join(mkdtempSync(join(tmpdir(), 'relay-emulator-kora-signers-')), 'signers.toml');

const usdcOf = async (emulator: RelayEmulator, owner: Keypair | typeof FEE_PAYER) => {
  const account = await emulator.getAccount(ata(owner instanceof Keypair ? owner.publicKey : owner));
  return account ? Buffer.from(account.data).readBigUInt64LE(64) : null;
};

describe('Kora prices and token payments', () => {
  let emulator: RelayEmulator;
  let call: ReturnType<typeof koraCaller>;

  beforeAll(async () => {
    emulator = await createRelayEmulator({ kora: { config: koraToml({ price: ['type = "margin"', 'margin = 0.5'] }) } });
    call = koraCaller(emulator.config.koraUrl);
    // The fee payer (Kora's payment address) and Bob get USDC accounts.
    for (const owner of [FEE_PAYER, BOB.publicKey]) await emulator.faucet({ address: owner.toBase58(), mint: USDC.toBase58(), amount: 0 });
  });
  afterAll(() => emulator.close());

  const transfer = async (payment: bigint | null) => {
    const { blockhash } = (await call('getBlockhash')).result;
    const instructions = [transferInstruction(ALICE, BOB.publicKey, 1_000n)];
    if (payment !== null) instructions.push(transferInstruction(ALICE, FEE_PAYER, payment));
    return build({ instructions, blockhash, signers: [ALICE] });
  };

  it('estimates as Kora does: network fee, room for the payment instruction, the margin; in tokens at the mock price', async () => {
    // Two signatures (10,000) and 50 for the payment instruction it lacks, × 1.5, rounded up.
    const unpaid = (await call('estimateTransactionFee', { transaction: await transfer(null), fee_token: USDC.toBase58() })).result;
    expect(unpaid).toEqual({ fee_in_lamports: 15_075, fee_in_token: 150_750, signer_pubkey: FEE_PAYER.toBase58(), payment_address: FEE_PAYER.toBase58() });
    // With a payment to the payment address in it, no room is added.
    const paid = (await call('estimateTransactionFee', { transaction: await transfer(0n) })).result;
    expect(paid).toMatchObject({ fee_in_lamports: 15_000, fee_in_token: null });
    const other = Keypair.generate().publicKey.toBase58();
    expect((await call('estimateTransactionFee', { transaction: await transfer(0n), fee_token: other })).error).toEqual({
      code: -32000,
      message: `Invalid request: Token ${other} is not supported`,
    });
  });

  it('refuses a missing or short payment, and the fee payer pays nothing', async () => {
    const before = (await emulator.getAccount(FEE_PAYER))!.lamports;
    expect((await call('signAndSendTransaction', { transaction: await transfer(null) })).error?.message).toBe(
      'Invalid transaction: Insufficient token payment. Required 15075 lamports',
    );
    expect((await call('signTransaction', { transaction: await transfer(149_999n) })).error?.message).toBe(
      'Invalid transaction: Insufficient token payment. Required 15000 lamports',
    );
    await emulator.settle();
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before);
    expect(await usdcOf(emulator, FEE_PAYER)).toBe(0n);
  });

  it('signs and sends what pays enough: the fee payer pays the network fee and is paid in USDC', async () => {
    const before = (await emulator.getAccount(FEE_PAYER))!.lamports;
    const sent = (await call('signAndSendTransaction', { transaction: await transfer(150_000n) })).result;
    await emulator.settle();
    expect(emulator.services.submissions.get(sent.signature)).toMatchObject({ origin: 'kora', status: 'processed' });
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before - 10_000n);
    expect(await usdcOf(emulator, FEE_PAYER)).toBe(150_000n);
  });
});

describe('Kora fixed prices and signers.toml', () => {
  const signerKey = Keypair.generate();
  let emulator: RelayEmulator;
  let call: ReturnType<typeof koraCaller>;

  beforeAll(async () => {
    const signers = signersFile;
    writeFileSync(
      signers,
      [
        '[signer_pool]',
        'strategy = "round_robin"',
        ...['one', 'two'].flatMap((name) => ['[[signers]]', `name = "${name}"`, 'type = "memory"', `private_key_env = "KORA_TEST_KEY_${name}"`]),
      ].join('\n'),
    );
    process.env.KORA_TEST_KEY_one = bs58.encode(signerKey.secretKey);
    process.env.KORA_TEST_KEY_two = `[${Array.from(Keypair.generate().secretKey).join(', ')}]`;
    const config = koraToml({
      price: ['type = "fixed"', 'amount = 50', `token = "${USDC.toBase58()}"`, 'strict = true'],
      kora: [`payment_address = "${FEE_PAYER.toBase58()}"`],
    });
    emulator = await createRelayEmulator({ kora: { config, signers } });
    call = koraCaller(emulator.config.koraUrl);
    await emulator.faucet({ address: signerKey.publicKey.toBase58(), lamports: 1_000_000_000n });
    for (const owner of [FEE_PAYER, BOB.publicKey]) await emulator.faucet({ address: owner.toBase58(), mint: USDC.toBase58(), amount: 0 });
  });
  afterAll(() => {
    delete process.env.KORA_TEST_KEY_one;
    delete process.env.KORA_TEST_KEY_two;
    return emulator.close();
  });

  it('names its signers, hands them out in turn and signs as the one named by signer_key', async () => {
    const { fee_payers: feePayers } = (await call('getConfig')).result;
    expect(feePayers).toHaveLength(2);
    expect(feePayers[0]).toBe(signerKey.publicKey.toBase58());
    const turns = [];
    for (let i = 0; i < 3; i += 1) turns.push((await call('getPayerSigner')).result);
    expect(turns.map((turn) => turn.signer_address)).toEqual([feePayers[0], feePayers[1], feePayers[0]]);
    expect(turns.every((turn) => turn.payment_address === FEE_PAYER.toBase58())).toBe(true);
    const unknown = Keypair.generate().publicKey.toBase58();
    expect((await call('signTransaction', { transaction: 'AA==', signer_key: unknown })).error?.message).toMatch(/^Invalid transaction/);
    expect((await call('estimateTransactionFee', { transaction: await paying(5n), signer_key: unknown })).error?.message).toBe(
      `Validation error: Signer with pubkey ${unknown} not found in pool`,
    );
  });

  const paying = async (amount: bigint) => {
    const { blockhash } = (await call('getBlockhash')).result;
    const instructions = [transferInstruction(ALICE, FEE_PAYER, amount)];
    return build({ instructions, blockhash, signers: [ALICE], feePayer: signerKey.publicKey });
  };

  it('holds a strict fixed price to the cost of the transaction, after the payment', async () => {
    // 50 base units are 5 lamports at the mock price; the transaction costs 10,000.
    expect((await call('signTransaction', { transaction: await paying(49n), signer_key: signerKey.publicKey.toBase58() })).error?.message).toBe(
      'Invalid transaction: Insufficient token payment. Required 5 lamports',
    );
    expect((await call('signTransaction', { transaction: await paying(50n), signer_key: signerKey.publicKey.toBase58() })).error?.message).toBe(
      'Validation error: Strict pricing violation: total fee (10000 lamports) exceeds fixed price (5 lamports)',
    );
  });

  it('signs in the named signer’s place', async () => {
    const config = koraToml({ price: ['type = "fixed"', 'amount = 50', `token = "${USDC.toBase58()}"`, 'strict = false'] });
    const loose = await createRelayEmulator({ kora: { config, signers: signersFile } });
    try {
      const looseCall = koraCaller(loose.config.koraUrl);
      await loose.faucet({ address: signerKey.publicKey.toBase58(), lamports: 1_000_000_000n });
      await loose.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
      const { blockhash } = (await looseCall('getBlockhash')).result;
      // No payment_address: payments go to the signer itself, so a transfer to Bob pays nothing.
      const transaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash, signers: [ALICE], feePayer: signerKey.publicKey });
      expect((await looseCall('signTransaction', { transaction, signer_key: signerKey.publicKey.toBase58() })).error?.message).toBe(
        'Invalid transaction: Insufficient token payment. Required 5 lamports',
      );
      await loose.faucet({ address: signerKey.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
      const paid = build({
        instructions: [transferInstruction(ALICE, signerKey.publicKey, 50n)],
        blockhash,
        signers: [ALICE],
        feePayer: signerKey.publicKey,
      });
      const signed = (await looseCall('signTransaction', { transaction: paid, signer_key: signerKey.publicKey.toBase58() })).result;
      expect(signed.signer_pubkey).toBe(signerKey.publicKey.toBase58());
      const tx = VersionedTransaction.deserialize(Buffer.from(signed.signed_transaction, 'base64'));
      expect(tx.message.staticAccountKeys[0]!.equals(signerKey.publicKey)).toBe(true);
      expect(tx.signatures[0]!.some((byte) => byte !== 0)).toBe(true);
    } finally {
      await loose.close();
    }
  });
});

describe('Kora 2.0.5: what the fee payer sends in tokens by a plain Transfer counts', () => {
  // Kora 2.0.5 (#349): a plain Transfer names no mint, and 2.0.4 left it out of the fee payer's
  // outflow; 2.0.5 reads the mint from the source account and values it. The server the SDK 0.2.1
  // was released with (ts-sdk-v0.2.1) has the same source as v2.0.5. 1 USDC = 100,000 lamports.
  let emulator: RelayEmulator;
  let call: ReturnType<typeof koraCaller>;

  beforeAll(async () => {
    const config = koraToml({ tables: ['[validation.fee_payer_policy.spl_token]', 'allow_transfer = true'] });
    emulator = await createRelayEmulator({ kora: { config } });
    call = koraCaller(emulator.config.koraUrl);
    await emulator.faucet({ address: FEE_PAYER.toBase58(), mint: USDC.toBase58(), amount: 100_000_000 });
    await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
  });
  afterAll(() => emulator.close());

  const sign = async (amount: bigint, checked: boolean) => {
    const { blockhash } = (await call('getBlockhash')).result;
    const transaction = build({ instructions: [transferInstruction(FEE_PAYER, BOB.publicKey, amount, { checked })], blockhash, signers: [] });
    return call('signTransaction', { transaction });
  };

  it('refuses a plain Transfer of the fee payer’s USDC worth more than max_allowed_lamports, as a TransferChecked', async () => {
    for (const checked of [false, true]) {
      // 20 USDC: 2,000,000 lamports at the mock price, over the cap of 1,000,000.
      expect((await sign(20_000_000n, checked)).error, `checked: ${checked}`).toEqual({
        code: -32000,
        message: 'Invalid transaction: Total transfer amount 2000000 exceeds maximum allowed 1000000',
      });
      // 5 USDC: 500,000 lamports, within it.
      expect((await sign(5_000_000n, checked)).result?.signer_pubkey).toBe(FEE_PAYER.toBase58());
    }
  });
});
