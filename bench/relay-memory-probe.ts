/**
 * Runs in its own process (node --expose-gc --import tsx bench/relay-memory-probe.ts <phase>
 * <engine> <transfers> <step> <clients> <slots>) and prints its part of a RelayMemoryProbe as
 * JSON. Each phase gets a process of its own, so that none reuses memory another freed.
 * - `transfers`: the RSS of one emulator before `transfers` relayed USDC transfers, after every
 *   `step` of them, and after a reset. `clients` callers relay at once through the emulator's
 *   fetch, each with a fresh blockhash per transfer, as the clients of a load test do.
 *   Submissions and history are kept (nothing is reset until the end), so the growth includes them.
 * - `slots`: the RSS `slots` one-slot warps add to a fresh emulator (what a slot costs the
 *   engine); then the RSS emulators that warped as many slots each keep once closed (whether
 *   closing, or recreating, an engine gives its slots back).
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction } from '@solana/web3.js';
import { createRelayEmulator } from '../src/index.ts';
import { keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { isEngineName } from '../src/domain/ledger/engines.ts';
import type { RelayMemoryProbe } from './figures.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const rss = () => {
  gc();
  gc();
  return process.memoryUsage().rss;
};

const [phase = 'transfers', engineName = 'bankrun', transfersArg = '10000', stepArg = '1000', clientsArg = '32', slotsArg = '500'] = process.argv.slice(2);
if (!isEngineName(engineName)) throw new Error(`unknown engine ${engineName}`);
const engine = engineName;
const transfers = Number(transfersArg);
const step = Number(stepArg);
const clients = Number(clientsArg);
const warps = Number(slotsArg);
/** Emulators made, warped and closed in the slots phase. */
const RECREATED = 3;

if (phase === 'slots') {
  const warped = await createRelayEmulator({ engine });
  const beforeWarps = rss();
  for (let warp = 0; warp < warps; warp += 1) await warped.warp({ slots: 1 });
  const afterWarps = rss();
  await warped.close();
  const beforeRecreate = rss();
  for (let made = 0; made < RECREATED; made += 1) {
    const other = await createRelayEmulator({ engine });
    for (let warp = 0; warp < warps; warp += 1) await other.warp({ slots: 1 });
    await other.close();
  }
  const afterRecreate = rss();
  const part: Pick<RelayMemoryProbe, 'warps' | 'recreated'> = {
    warps: { slots: warps, before: beforeWarps, after: afterWarps },
    recreated: { emulators: RECREATED, slotsEach: warps, before: beforeRecreate, after: afterRecreate },
  };
  process.stdout.write(JSON.stringify(part));
  process.exit(0);
}

const fixtures = loadFixtures();
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const usdc = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address);
const source = getAssociatedTokenAddressSync(usdc, alice.publicKey, true);

const emulator = await createRelayEmulator({ engine });
const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
let amount = 0;

/** One relayed transfer by alice (to her own account), its amount unique so that its signature is. */
async function relayOne(): Promise<void> {
  const unique = (amount += 1);
  const { blockhash } = await emulator.services.ledger.latestBlockhash();
  const tx = new Transaction({ feePayer: new PublicKey(emulator.config.feePayer), blockhash, lastValidBlockHeight: 0 });
  tx.add(createTransferInstruction(source, source, alice.publicKey, BigInt(unique)));
  tx.partialSign(alice);
  const signedTransaction = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
  const response = await emulator.fetch(
    new Request(`${emulator.config.baseUrl}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ signedTransaction }) }),
  );
  if (response.status !== 200) throw new Error(`relay refused: ${response.status} ${await response.text()}`);
}

/** `count` relays by `clients` callers at once, then every one settled. */
async function relay(count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left > 0) {
        left -= 1;
        await relayOne();
      }
    }),
  );
  await emulator.settle();
}

// Warm up (code, JIT, allocator pools), so that what follows is state, not start-up.
await relay(Math.min(step, 500));
const before = rss();
const marks: number[] = [];
const started = performance.now();
for (let done = 0; done < transfers; done += step) {
  await relay(Math.min(step, transfers - done));
  marks.push(rss());
}
const seconds = (performance.now() - started) / 1000;
const failed = emulator.services.submissions.all().filter((record) => record.status !== 'processed');
if (failed.length > 0) {
  const { ledger, injectedError } = failed[0]!;
  throw new Error(
    `${failed.length} relayed transfers did not succeed; the first: ${JSON.stringify(ledger?.err ?? injectedError)} ${ledger?.logs.join(' | ') ?? ''}`,
  );
}
const slots = Number(emulator.services.ledger.clock().slot);
await emulator.reset();
const afterReset = rss();

await emulator.close();
const part: Omit<RelayMemoryProbe, 'warps' | 'recreated'> = { engine: engineName, transfers, step, clients, before, marks, afterReset, slots, seconds };
process.stdout.write(JSON.stringify(part));
process.exit(0);
