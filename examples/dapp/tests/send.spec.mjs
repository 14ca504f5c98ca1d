// The dapp's browser tests: connect, approve a USDC transfer the relay pays for, see the receipt and
// the balances; reject it; and a transfer that fails, whose error the page shows. Each test gets a
// fresh emulator state and alice's wallet (a fixture wallet holding USDC).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'relay-emulator/playwright';

const DAPP = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
const WEB3 = readFileSync(createRequire(import.meta.url).resolve('@solana/web3.js/lib/index.iife.min.js'), 'utf8');
const USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const BOB = 'GdWwi2VAUoYLezwvrEUnPw2SfVM7EGb312jEQLDQbuQT';

test.use({ walletKey: 'alice' });

/** The dapp, served by Playwright from its files (no server to start), pointed at the worker's emulator. */
test.beforeEach(async ({ page, emulator }) => {
  await page.route('http://dapp.localhost/**', (route) =>
    new URL(route.request().url()).pathname === '/web3.js'
      ? route.fulfill({ contentType: 'text/javascript', body: WEB3 })
      : route.fulfill({ contentType: 'text/html', body: DAPP }),
  );
  await emulator.faucet({ address: BOB, mint: USDC, amount: 0 });
});

const open = (page, emulator, amount) =>
  page.goto(`/?${new URLSearchParams({ relay: emulator.config.baseUrl, key: emulator.config.apiKey, to: BOB, amount: String(amount) })}`);

async function usdc(emulator, owner) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountsByOwner', params: [owner, { mint: USDC }, { encoding: 'jsonParsed' }] });
  const answer = await (await fetch(emulator.config.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
  return BigInt(answer.result.value[0]?.account.data.parsed.info.tokenAmount.amount ?? 0);
}

test('connects, and the relay lands a transfer the wallet approved', async ({ page, emulator, wallet }) => {
  await open(page, emulator, 2_500_000);
  await page.click('#connect');
  await expect(page.locator('#status')).toHaveText('connected');
  await expect(page.locator('#account')).toHaveText(wallet.address);
  await page.click('#send');
  await expect(page.locator('#status')).toHaveText('landed');
  await expect(page.locator('#receipt')).toContainText('"Signature"');
  expect(await usdc(emulator, BOB)).toBe(2_500_000n);
  expect(wallet.requests.map((request) => [request.method, request.outcome])).toEqual([
    ['connect', 'approved'],
    ['signTransaction', 'approved'],
  ]);
  expect(wallet.requests[1].transaction.feePayer).toBe(emulator.config.feePayer);
});

test('shows the dapp’s own error when the user rejects', async ({ page, emulator, wallet }) => {
  await open(page, emulator, 1);
  await page.click('#connect');
  await expect(page.locator('#status')).toHaveText('connected');
  wallet.decide('reject');
  await page.click('#send');
  await expect(page.locator('#status')).toHaveText('send failed: 4001 User rejected the request.');
  expect(await usdc(emulator, BOB)).toBe(0n);
});

test('shows why a transfer failed: more USDC than alice holds', async ({ page, emulator }) => {
  await open(page, emulator, 10_000_000_000);
  await page.click('#connect');
  await expect(page.locator('#status')).toHaveText('connected');
  await page.click('#send');
  // Token program error 1: insufficient funds, as the RPC reports the failed transaction.
  await expect(page.locator('#status')).toHaveText('failed: {"InstructionError":[0,{"Custom":1}]}');
  expect(await usdc(emulator, BOB)).toBe(0n);
});
