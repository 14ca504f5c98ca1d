import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../../src/index.ts';
import { COMPUTE_BUDGET_PROGRAM, koraToml, SYSTEM_PROGRAM, TOKEN_PROGRAM } from '../../support/kora.ts';
import { ALICE, ata, BOB, build, FEE_PAYER, transferInstruction, USDC } from '../../support/transactions.ts';

const KORA = 'https://kora.example.test/';
const KORA_AUTH = 'https://kora-auth.example.test/';

const config = (kora: string[] = []) =>
  koraToml({ kora, programs: [SYSTEM_PROGRAM, TOKEN_PROGRAM, COMPUTE_BUDGET_PROGRAM], price: ['type = "margin"', 'margin = 0.0'] });

const usdcOf = async (emulator: RelayEmulator, owner: typeof FEE_PAYER) => {
  const account = await emulator.getAccount(ata(owner));
  return account ? Buffer.from(account.data).readBigUInt64LE(64) : null;
};

/**
 * The @solana/kora 0.2.1 SDK's KoraClient and kit plugin (createKitKoraClient), imported from the
 * scratch install (with its own @solana/kit 6) into this process, against the emulator through its
 * MSW handlers at a koraUrl of the app's choosing: every KoraClient method, the kit plugin's plan,
 * execute and send, and the SDK's auth headers, on the engine of the vitest project.
 */
export function describeKoraClientInProcess(scratchDir: () => string): void {
  describe('KoraClient and the kit plugin in process, through MSW', () => {
    let emulator: RelayEmulator;
    let guarded: RelayEmulator;
    let server: SetupServer;
    // The SDK and its kit 6, as the scratch project resolves them (ESM, loaded at run time).
    let sdk: any;
    let kit: any;
    let system: any;

    beforeAll(async () => {
      const scratch = scratchDir();
      const resolve = createRequire(join(scratch, 'package.json')).resolve;
      const load = (path: string) => import(pathToFileURL(path).href);
      sdk = await load(join(scratch, 'node_modules/@solana/kora/dist/src/index.js'));
      kit = await load(resolve('@solana/kit'));
      system = await load(resolve('@solana-program/system'));
      emulator = await createRelayEmulator({ koraUrl: KORA, kora: { config: config() } });
      guarded = await createRelayEmulator({ koraUrl: KORA_AUTH, kora: { config: config(['[kora.auth]', 'api_key = "k"', 'hmac_secret = "s"']) } });
      for (const owner of [FEE_PAYER, BOB.publicKey]) await emulator.faucet({ address: owner.toBase58(), mint: USDC.toBase58(), amount: 0 });
      await emulator.faucet({ address: ALICE.publicKey.toBase58(), lamports: 1_000_000_000n });
      server = setupServer(...emulator.handlers, ...guarded.handlers);
      server.listen({ onUnhandledRequest: 'error' });
    }, 120_000);
    afterAll(async () => {
      server?.close();
      await Promise.all([emulator?.close(), guarded?.close()]);
    });

    it('answers every KoraClient method, and signs and sends what pays its fee in USDC', async () => {
      const client = new sdk.KoraClient({ rpcUrl: KORA });
      expect((await client.getConfig()).fee_payers).toEqual([FEE_PAYER.toBase58()]);
      expect(await client.getPayerSigner()).toEqual({ signer_address: FEE_PAYER.toBase58(), payment_address: FEE_PAYER.toBase58() });
      expect((await client.getSupportedTokens()).tokens).toEqual([USDC.toBase58()]);
      const { blockhash } = await client.getBlockhash();
      const built = await client.transferTransaction({
        amount: 1_000,
        token: USDC.toBase58(),
        source: ALICE.publicKey.toBase58(),
        destination: BOB.publicKey.toBase58(),
      });
      expect(built.instructions).toHaveLength(1);
      // Two signatures (10,000) and 50 for the payment instruction it lacks; devnet USDC at 0.0001 SOL: ten base units a lamport.
      const fee = await client.estimateTransactionFee({ transaction: built.transaction, fee_token: USDC.toBase58() });
      expect(fee).toMatchObject({ fee_in_lamports: 10_050, fee_in_token: 100_500, signer_pubkey: FEE_PAYER.toBase58() });
      const payment = await client.getPaymentInstruction({
        transaction: built.transaction,
        fee_token: USDC.toBase58(),
        source_wallet: ALICE.publicKey.toBase58(),
      });
      expect(payment.payment_amount).toBe(100_500);
      expect(payment.payment_instruction.accounts.map((account: { address: string }) => account.address).slice(0, 2)).toEqual([
        ata(ALICE.publicKey).toBase58(),
        ata(FEE_PAYER).toBase58(),
      ]);

      const pays = (amount: bigint) =>
        build({
          instructions: [transferInstruction(ALICE, BOB.publicKey, 1_000n), transferInstruction(ALICE, FEE_PAYER, amount)],
          blockhash,
          signers: [ALICE],
        });
      await expect(client.signTransaction({ transaction: pays(99_999n) })).rejects.toThrow(/Insufficient token payment\. Required 10000 lamports/);
      expect((await client.signTransaction({ transaction: pays(100_000n) })).signer_pubkey).toBe(FEE_PAYER.toBase58());
      const sent = await client.signAndSendTransaction({ transaction: pays(100_001n) });
      await emulator.settle();
      expect(emulator.services.submissions.get(sent.signature)).toMatchObject({ origin: 'kora', status: 'processed' });
      expect(await usdcOf(emulator, FEE_PAYER)).toBe(100_001n);
    });

    it('plans with a placeholder payment, then estimates, pays and sends through the kit plugin', async () => {
      const alice = await kit.createKeyPairSignerFromBytes(ALICE.secretKey);
      const kitClient = await sdk.createKitKoraClient({ endpoint: KORA, rpcUrl: emulator.config.rpcUrl, feeToken: USDC.toBase58(), feePayerWallet: alice });
      const ix = system.getTransferSolInstruction({ source: alice, destination: kit.address(BOB.publicKey.toBase58()), amount: 1_000_000n });
      const planned = await kitClient.planTransaction([ix]);
      expect(
        planned.instructions.some((instruction: { programAddress: string }) => instruction.programAddress === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
      ).toBe(true);
      const [bobBefore, paidBefore] = [(await emulator.getAccount(BOB.publicKey))?.lamports ?? 0n, (await usdcOf(emulator, FEE_PAYER))!];
      const result = await kitClient.sendTransaction([ix]);
      expect(result.status).toBe('successful');
      await emulator.settle();
      expect((await emulator.getAccount(BOB.publicKey))!.lamports).toBe(bobBefore + 1_000_000n);
      expect((await usdcOf(emulator, FEE_PAYER))! > paidBefore).toBe(true);
    });

    it('sends the SDK’s API key and HMAC, and a wrong or missing one is refused', async () => {
      expect((await new sdk.KoraClient({ rpcUrl: KORA_AUTH, apiKey: 'k', hmacSecret: 's' }).getConfig()).fee_payers).toEqual([FEE_PAYER.toBase58()]);
      for (const credentials of [{}, { apiKey: 'k', hmacSecret: 'wrong' }, { apiKey: 'wrong', hmacSecret: 's' }]) {
        await expect(new sdk.KoraClient({ rpcUrl: KORA_AUTH, ...credentials }).getConfig()).rejects.toThrow();
      }
      expect(guarded.requestJournal({ path: '/' }).filter((entry) => entry.status === 401)).toHaveLength(3);
    });
  });
}
