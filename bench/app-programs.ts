/**
 * The app's own programs (issue 32), on the default engine: start-up with Light Protocol's five
 * programs and 39 account dumps (from @lightprotocol/zk-compression-cli, installed by
 * test/real-clients/light/) against start-up without them, and relayed calls to one of them
 * (spl_noop) against relayed SPL transfers, in one emulator, rounds interleaved.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';
import { keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { installJudge } from '../test/support/judge-install.ts';
import type { AppProgramsMeasurement } from './figures.ts';
import { transferBytes } from './transfers.ts';

const LIGHT_PROGRAMS = [
  ['noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV', 'spl_noop.so'],
  ['SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7', 'light_system_program_pinocchio.so'],
  ['cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m', 'light_compressed_token.so'],
  ['compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq', 'account_compression.so'],
  ['Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX', 'light_registry.so'],
] as const;

const fixtures = loadFixtures();
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const feePayer = new PublicKey(fixtures.relay.feePayer.publicKey);
let nonce = 0;

async function firstAnswer(emulator: RelayEmulator): Promise<void> {
  const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }));
  if (response.status !== 200) throw new Error('emulator not ready');
}

async function relayAll(emulator: RelayEmulator, transactions: Uint8Array[]): Promise<number> {
  const url = `${emulator.config.baseUrl}/Transaction/send`;
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
  const requests = transactions.map(
    (bytes) => new Request(url, { method: 'POST', headers, body: JSON.stringify({ signedTransaction: Buffer.from(bytes).toString('base64') }) }),
  );
  const started = performance.now();
  for (const request of requests) {
    const response = await emulator.fetch(request);
    if (response.status !== 200) throw new Error(`relay refused: ${await response.text()}`);
  }
  await emulator.settle();
  return (performance.now() - started) / 1000;
}

function noopCall(blockhash: string): Uint8Array {
  const tx = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 0 });
  tx.add(
    new TransactionInstruction({
      programId: new PublicKey(LIGHT_PROGRAMS[0][0]),
      keys: [{ pubkey: alice.publicKey, isSigner: true, isWritable: false }],
      data: Buffer.from(`${nonce++}`),
    }),
  );
  tx.partialSign(alice);
  return tx.serialize({ requireAllSignatures: false });
}

export async function measureAppPrograms(rounds: number, perRound: number): Promise<AppProgramsMeasurement> {
  const root = join(
    await installJudge(fileURLToPath(new URL('../test/real-clients/light/', import.meta.url))),
    'node_modules/@lightprotocol/zk-compression-cli',
  );
  const options = {
    engine: 'litesvm' as const,
    programs: LIGHT_PROGRAMS.map(([programId, file]) => ({ programId, path: join(root, 'bin', file) })),
    accountDirs: [join(root, 'accounts')],
  };
  const startup = { withoutMs: [] as number[], withMs: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    const plain = await createRelayEmulator({ engine: 'litesvm' });
    await firstAnswer(plain);
    startup.withoutMs.push(performance.now() - started);
    await plain.close();
    started = performance.now();
    const loaded = await createRelayEmulator(options);
    await firstAnswer(loaded);
    startup.withMs.push(performance.now() - started);
    await loaded.close();
  }
  const emulator = await createRelayEmulator(options);
  const relay = { perRound, transferSeconds: [] as number[], callSeconds: [] as number[] };
  try {
    for (let round = 0; round < rounds; round += 1) {
      const { blockhash } = await emulator.services.ledger.latestBlockhash();
      relay.transferSeconds.push(
        await relayAll(
          emulator,
          Array.from({ length: perRound }, () => transferBytes(blockhash, { feePayerSigns: false })),
        ),
      );
      const fresh = (await emulator.services.ledger.latestBlockhash()).blockhash;
      relay.callSeconds.push(
        await relayAll(
          emulator,
          Array.from({ length: perRound }, () => noopCall(fresh)),
        ),
      );
    }
  } finally {
    await emulator.close();
  }
  return { programs: options.programs.length, accounts: new Set(readdirSync(join(root, 'accounts'))).size, startup, relay };
}
