/**
 * A user's suite (issue 36): 50 vitest files, each making one emulator (`createRelayEmulator()`,
 * the built package) and relaying one SOL transfer, against the same 50 files each making a bare
 * LiteSVM and sending the same transfer to it. By vitest's default each file gets a fresh module
 * graph, so each file pays its imports: what a team's suite pays. Then both again with `isolate:
 * false` (docs/testing-with-vitest.md's recipe), where the files of a worker share them. Wall time
 * of `vitest run`, rounds paired.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UserSuiteMeasurement } from './figures.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Inside the repository, so that the files resolve vitest, web3.js and litesvm from its node_modules. */
const ROOT = join(REPO, '.bench-suite');
const DIST_INDEX = join(REPO, 'dist', 'index.js');

const EMULATOR_FILE = `import { expect, test } from 'vitest';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { createRelayEmulator, keypairOf, loadFixtures } from ${JSON.stringify(DIST_INDEX)};

test('relays one transfer', async () => {
  const emulator = await createRelayEmulator();
  const { baseUrl, apiKey, feePayer } = emulator.config;
  const wallet = loadFixtures().wallets[0];
  const alice = keypairOf({ publicKey: wallet.publicKey, secretKey: wallet.secretKey });
  const blockhash = await (await emulator.fetch(new Request(baseUrl + '/Transaction/blockhash', { headers: { 'X-API-Key': apiKey } }))).json();
  const transaction = new Transaction({ feePayer: new PublicKey(feePayer), recentBlockhash: blockhash.Blockhash }).add(
    SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
  );
  transaction.partialSign(alice);
  const response = await emulator.fetch(
    new Request(baseUrl + '/Transaction/send', {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ signedTransaction: transaction.serialize({ requireAllSignatures: false }).toString('base64') }),
    }),
  );
  expect(response.status).toBe(200);
  await emulator.settle();
  await emulator.close();
});
`;

const BARE_FILE = `import { expect, test } from 'vitest';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';

test('sends one transfer', () => {
  const svm = new LiteSVM();
  const alice = Keypair.generate();
  svm.airdrop(alice.publicKey.toBase58(), 1_000_000_000n);
  const transaction = new Transaction({ feePayer: alice.publicKey, recentBlockhash: svm.latestBlockhash() }).add(
    SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
  );
  transaction.sign(alice);
  // LiteSVM's own Transaction shape (@solana/kit's): the message and its signatures.
  const result = svm.sendTransaction({ messageBytes: transaction.serializeMessage(), signatures: { [alice.publicKey.toBase58()]: transaction.signature } });
  expect(result).not.toBeInstanceOf(FailedTransactionMetadata);
});
`;

/** vitest's default, or docs/testing-with-vitest.md's recipe: files share their worker's imports. */
const config = (isolate: boolean) => `export default { test: { include: ['*.test.mjs']${isolate ? '' : ', isolate: false'} } };\n`;

function writeSuite(name: string, file: string, files: number, isolate: boolean): string {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'vitest.config.mjs'), config(isolate));
  for (let index = 0; index < files; index += 1) writeFileSync(join(dir, `file-${String(index).padStart(2, '0')}.test.mjs`), file);
  return dir;
}

function runSuite(dir: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'error', CI: 'true' },
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`vitest run ${dir} failed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
  return ms;
}

/** Writes both suites of `files` files, builds dist/, and times `rounds` pairs of runs, isolated (vitest's default) and not. */
export async function measureUserSuite(files: number, rounds: number): Promise<UserSuiteMeasurement[]> {
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  rmSync(ROOT, { recursive: true, force: true });
  const measured = [true, false].map((isolate) => ({
    files,
    isolate,
    emulatorMs: [] as number[],
    bareMs: [] as number[],
    emulatorDir: writeSuite(`emulator-${isolate}`, EMULATOR_FILE, files, isolate),
    bareDir: writeSuite(`bare-${isolate}`, BARE_FILE, files, isolate),
  }));
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const mode of measured) {
        mode.bareMs.push(runSuite(mode.bareDir));
        mode.emulatorMs.push(runSuite(mode.emulatorDir));
      }
    }
  } finally {
    rmSync(ROOT, { recursive: true, force: true });
  }
  return measured.map(({ files, isolate, emulatorMs, bareMs }) => ({ files, isolate, emulatorMs, bareMs }));
}
