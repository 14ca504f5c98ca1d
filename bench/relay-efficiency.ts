/**
 * Relay efficiency: relayed token transfers per second through the full in-process path
 * (fetch → checks → fee-payer signature → queue → ledger → settled), against the same transfers,
 * signed the same way (client + fee payer, with @solana/web3.js), sent straight to a bare bankrun
 * ledger seeded with the same genesis.
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { start } from 'solana-bankrun';
import { createRelayEmulator } from '../src/index.ts';
import { genesisAccounts, keypairOf, loadFixtures } from '../src/fixtures/load-fixtures.ts';
import type { RelayEfficiencyMeasurement } from './figures.ts';

const fixtures = loadFixtures();
const feePayer = keypairOf(fixtures.relay.feePayer);
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const usdc = fixtures.mints.find((mint) => mint.symbol === 'USDC')!;

const source = getAssociatedTokenAddressSync(new PublicKey(usdc.address), alice.publicKey, true);

/** A USDC transfer by alice (to her own account: the same program work as any transfer), amount unique per call. */
function transfer(blockhash: string, amount: number, signFeePayer: boolean): Transaction {
  const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight: 0 });
  tx.add(createTransferInstruction(source, source, alice.publicKey, BigInt(amount)));
  tx.partialSign(alice);
  if (signFeePayer) tx.partialSign(feePayer);
  return tx;
}

/** Times `count` transfers each way; relayEfficiencyFigure (figures.ts) makes the figure. */
export async function measureRelayEfficiency(count: number): Promise<RelayEfficiencyMeasurement> {
  // Baseline: straight to bankrun.
  const context = await start(
    [],
    genesisAccounts(fixtures).map(({ address, account }) => ({ address, info: { ...account, lamports: Number(account.lamports), rentEpoch: 0 } })),
  );
  let started = performance.now();
  for (let index = 0; index < count; index += 1) {
    const [blockhash] = (await context.banksClient.getLatestBlockhash())!;
    const tx = transfer(blockhash, index + 1, true);
    const result = await context.banksClient.tryProcessTransaction(tx);
    if (result.result) throw new Error(`baseline transfer failed: ${result.result}`);
  }
  const directSeconds = (performance.now() - started) / 1000;

  // Relay: the full path through the emulator's fetch.
  const emulator = await createRelayEmulator();
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  started = performance.now();
  for (let index = 0; index < count; index += 1) {
    const { blockhash } = await emulator.services.ledger.latestBlockhash();
    const tx = transfer(blockhash, index + 1, false);
    const signedTransaction = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) }));
    if (response.status !== 200) throw new Error(`relay refused: ${await response.text()}`);
  }
  await emulator.settle();
  const relaySeconds = (performance.now() - started) / 1000;
  const failed = emulator.services.submissions.all().filter((record) => record.status !== 'processed');
  if (failed.length > 0) throw new Error(`${failed.length} relayed transfers did not succeed`);
  await emulator.close();
  return { transfers: count, relaySeconds, directSeconds };
}
