/**
 * What relay-emulator/playwright's fixture adds to a Playwright test (issue 54): in one Chromium,
 * round by round, a bare page opened on the plain dapp page (test/fixtures/dapps/plain-dapp.html, a loopback server) against the same page
 * with the fixture's work before it: the worker's emulator started (its first test), reset, the
 * test wallet injected. Interleaved rounds.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createRelayEmulator } from '../src/index.ts';
import { TestWallet } from '../src/wallet/index.ts';
import { launchChromium } from '../test/support/browser.ts';
import type { WalletPageMeasurement } from './figures.ts';

const DAPP = readFileSync(fileURLToPath(new URL('../test/fixtures/dapps/plain-dapp.html', import.meta.url)), 'utf8');
const WEB3 = readFileSync(createRequire(import.meta.url).resolve('@solana/web3.js/lib/index.iife.min.js'), 'utf8');

export async function measureWalletPage(rounds: number): Promise<WalletPageMeasurement> {
  const server = createServer((request, response) => {
    const script = request.url === '/web3.js';
    response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
    response.end(script ? WEB3 : DAPP);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dapp = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const browser = await launchChromium();
  const shared = await createRelayEmulator();
  const measurement: WalletPageMeasurement = { bareMs: [], fixtureMs: [], perTestMs: [] };
  const page = async (before: () => Promise<TestWallet | null>) => {
    const started = performance.now();
    const opened = await browser.context.newPage();
    const wallet = await before();
    if (wallet) await wallet.install(opened);
    await opened.goto(dapp);
    await opened.waitForFunction(() => typeof (window as unknown as { solanaWeb3?: unknown }).solanaWeb3 === 'object');
    const ms = performance.now() - started;
    await opened.close();
    return ms;
  };
  try {
    for (let round = 0; round < rounds; round += 1) {
      measurement.bareMs.push(await page(async () => null));
      let started: Awaited<ReturnType<typeof createRelayEmulator>> | null = null;
      measurement.fixtureMs.push(
        await page(async () => {
          started = await createRelayEmulator();
          await started.reset();
          return new TestWallet({ rpcUrl: started.config.rpcUrl, feePayer: started.config.feePayer });
        }),
      );
      await (started as Awaited<ReturnType<typeof createRelayEmulator>> | null)?.close();
      measurement.perTestMs.push(
        await page(async () => {
          await shared.reset();
          return new TestWallet({ rpcUrl: shared.config.rpcUrl, feePayer: shared.config.feePayer });
        }),
      );
    }
  } finally {
    await shared.close();
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return measurement;
}
