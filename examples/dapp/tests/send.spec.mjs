// The dapp's browser tests: connect with WalletMultiButton, approve a USDC transfer the relay pays for,
// see the receipt and the balances; reject it; and a transfer that fails, whose error the page shows.
// Each test gets a fresh emulator state and alice's wallet (a fixture wallet holding USDC); the
// fixture tells the dapp where its relay is (window.__RELAY_EMULATOR__, read by src/relay.js).
import { expect, test } from 'relay-emulator/playwright';

const USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const BOB = 'GdWwi2VAUoYLezwvrEUnPw2SfVM7EGb312jEQLDQbuQT';

test.use({ walletKey: 'alice' });

test.beforeEach(async ({ emulator }) => {
  // Bob's USDC account, empty: where the transfers go.
  await emulator.faucet({ address: BOB, mint: USDC, amount: 0 });
});

/** As a user does: WalletMultiButton, the wallet in its list, then the wallet's own approval (the test wallet's). */
async function connect(page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Select Wallet' }).click();
  await page.getByRole('button', { name: 'Relay Emulator' }).click();
  await expect(page.locator('#account')).toBeVisible();
}

async function send(page, amount) {
  await page.fill('#to', BOB);
  await page.fill('#amount', amount);
  await page.click('#send');
}

async function usdc(emulator, owner) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountsByOwner', params: [owner, { mint: USDC }, { encoding: 'jsonParsed' }] });
  const answer = await (await fetch(emulator.config.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
  return BigInt(answer.result.value[0]?.account.data.parsed.info.tokenAmount.amount ?? 0);
}

test('connects, and the relay lands a transfer the wallet approved', async ({ page, emulator, wallet }) => {
  await connect(page);
  await expect(page.locator('#account')).toHaveText(wallet.address);
  await send(page, '2.5');
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
  await connect(page);
  wallet.decide('reject');
  await send(page, '1');
  await expect(page.locator('#status')).toHaveText('send failed: 4001 User rejected the request.');
  expect(await usdc(emulator, BOB)).toBe(0n);
});

test('shows why a transfer failed: more USDC than alice holds', async ({ page, emulator }) => {
  await connect(page);
  await send(page, '10000');
  // Token program error 1: insufficient funds, as the RPC reports the failed transaction.
  await expect(page.locator('#status')).toHaveText('failed: {"InstructionError":[0,{"Custom":1}]}');
  expect(await usdc(emulator, BOB)).toBe(0n);
});

test('the emulator’s web UI lists what the wallet was asked beside the test’s relay', async ({ page, emulator }) => {
  await connect(page);
  await send(page, '1');
  await expect(page.locator('#status')).toHaveText('landed');
  // The worker's emulator serves its web UI; grouped by test, each test's wallet requests come first.
  await page.goto(`${emulator.config.uiUrl}?group=test`);
  const group = page.locator('#relay-table tr.group', { hasText: 'the emulator’s web UI lists' });
  await expect(group).toContainText('· 1 · the sponsor paid 10,000 lamports');
  const asked = page.locator('#relay-table tr.wallet-requests li');
  await expect(asked).toHaveText(['connect approved', /^signTransaction approved · fee payer \w{4}…\w{4}, 2 signers$/]);
});
