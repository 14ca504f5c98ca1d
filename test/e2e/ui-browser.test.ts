import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import {
  type AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/adapters/server/start-server.ts';
import { accessibilityViolations, launchChromium, pageTrouble, screenshot, type Browser } from '../support/browser.ts';
import { koraCaller } from '../support/kora.ts';
import { legacyTransfer } from '../support/legacy-transactions.ts';
import { ALICE, ata, BOB, build, FEE_PAYER, KIN, transferInstruction, USDC } from '../support/transactions.ts';

// The web UI in a real browser (Debian's chromium through playwright-core) against the emulator on
// a port: relays appear live with their status and rule, details open, the faucet funds a wallet,
// reset empties the list, and every view passes axe-core. Screenshots go to test-artifacts/ui/.
// Preflight is off, so that a transfer that can only fail lands and fails on the ledger.

const LIVE = 15_000;

describe('web UI in chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let trouble: string[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ port: 0, emulator: { skipPreflight: true } }), launchChromium()]);
    page = await browser.context.newPage();
    trouble = pageTrouble(page);
    // Long enough to install a browser when the machine has none (support/find-browser.ts).
  }, 15 * 60_000);
  // No uncaught error, no failed request, nothing the Content-Security-Policy refused.
  afterEach(() => expect(trouble.splice(0)).toEqual([]));
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-API-Key': server.emulator.config.apiKey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const blockhash = async () => (await api('GET', '/api/Transaction/blockhash')).body.Blockhash as string;
  /** A make-transfer as Kinetic's SDK sends it (app memo, TransferChecked), creating the recipient's account; answered 201. */
  const legacyTransferToNewcomer = async () => {
    const recipient = Keypair.generate();
    const latest = (await api('GET', '/api/transaction/latest-blockhash/devnet/1')).body;
    const legacy = await api('POST', '/api/transaction/make-transfer', {
      commitment: 'Confirmed',
      environment: 'devnet',
      index: 1,
      mint: KIN.toBase58(),
      lastValidBlockHeight: latest.lastValidBlockHeight,
      tx: legacyTransfer({
        blockhash: latest.blockhash,
        memoIndex: 1,
        transfers: [{ from: ALICE, to: recipient.publicKey, amount: 50_000n, create: recipient }],
      }),
    });
    expect(legacy.status).toBe(201);
    return legacy;
  };
  const row = (id: string) => page.locator(`#relay-table tr[data-id="${id}"]`);
  const seriousViolations = async (name: string) =>
    (await accessibilityViolations(page, name)).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

  it('shows relays live through their lifecycle, with the refusing rule, and opens their details', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: LIVE }).toBe('Live');
    await expect.poll(() => page.locator('#fee-payer-balance').getAttribute('data-lamports')).toMatch(/^\d+$/);

    // The controls are folded away below the list: opened, they pause the queue, and the relay waits in it.
    await page.locator('#controls summary').click();
    await page.locator('#queue button[value="pause"]').click();
    await expect.poll(() => page.locator('#queue-state').textContent(), { timeout: LIVE }).toMatch(/^paused/);
    // A transfer to a new recipient whose account the fee payer creates, as the vendor clients build it.
    const newcomer = Keypair.generate().publicKey;
    const transfer = build({
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(FEE_PAYER, ata(newcomer), newcomer, USDC),
        transferInstruction(ALICE, newcomer, 250_000n, { checked: true }),
      ],
      blockhash: await blockhash(),
      signers: [ALICE],
    });
    const sent = await api('POST', '/api/Transaction/send', { signedTransaction: transfer });
    expect(sent.status).toBe(200);
    const signature = sent.body.signature as string;
    await expect.poll(() => row(signature).getAttribute('data-status'), { timeout: LIVE }).toBe('Queued');
    await page.locator('#queue button[value="step"]').click();
    await expect.poll(() => row(signature).getAttribute('data-status'), { timeout: LIVE }).toBe('Finalized');
    await page.locator('#queue button[value="resume"]').click();
    // Faithful sponsors the newcomer's account without the close-authority hand-over strict wants: the
    // row says so, and what that leaves the fee payer unable to get back (the account's rent).
    expect(await row(signature).locator('.policy').textContent()).toBe('faithful: passed · strict would refuse (A6)');
    const [journaled] = server.emulator.transactionJournal({ signature });
    expect(journaled!.sponsorExposure).toBeGreaterThan(0);
    expect(await row(signature).locator('td.number').nth(2).textContent()).toBe(`${journaled!.sponsorExposure.toLocaleString('en-US')} lamports`);
    // What it cost the sponsor, net (the fee and the new account's rent), and the list grouped by the test (here the API key's app) it is charged to.
    const cost = journaled!.fee! + journaled!.sponsorExposure;
    expect(await row(signature).locator('td.number').nth(1).textContent()).toBe(`${cost.toLocaleString('en-US')} lamports`);
    await page.locator('#filter-group').selectOption('test');
    const group = page.locator('#relay-table tr.group[data-group="app relay-emulator-dev-key"]');
    await expect.poll(() => group.count(), { timeout: LIVE }).toBe(1);
    expect(await group.textContent()).toContain(`the sponsor paid ${cost.toLocaleString('en-US')} lamports`);
    // A test whose wallet was asked and that relayed nothing (the user rejected): its group, with what the wallet answered, live.
    const asked = { origin: 'http://127.0.0.1:4173', legacy: false } as const;
    server.emulator.recordWalletRequest({ ...asked, method: 'connect', outcome: 'approved' }, 'send.spec > rejects');
    server.emulator.recordWalletRequest(
      { ...asked, method: 'signTransaction', outcome: 'rejected', reason: 'User rejected the request.' },
      'send.spec > rejects',
    );
    const walletRow = page.locator('#relay-table tr.wallet-requests[data-group="send.spec > rejects"]');
    await expect
      .poll(() => walletRow.locator('li').allTextContents(), { timeout: LIVE })
      .toEqual(['connect approved', 'signTransaction rejected · http://127.0.0.1:4173']);
    expect(await page.locator('#relay-table tr.group[data-group="send.spec > rejects"]').textContent()).toContain('· 0 · the sponsor paid 0 lamports');
    await page.locator('#filter-group').selectOption('');

    // Refused by the fee-payer policy: answered 4xx, never a transaction, shown with its code and rule.
    const drain = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 1_000 })],
      blockhash: await blockhash(),
      signers: [],
    });
    const refused = await api('POST', '/api/Transaction/send', { signedTransaction: drain });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('FEE_PAYER_MISUSE');
    const refusedRow = page.locator('#relay-table tr[data-status="Refused"]');
    await expect.poll(() => refusedRow.count(), { timeout: LIVE }).toBe(1);
    expect(await refusedRow.locator('.policy').textContent()).toContain('FEE_PAYER_MISUSE');
    expect(await refusedRow.locator('.policy').textContent()).toContain('rule F1');

    // A legacy transfer, as Kinetic's SDK sends it.
    const legacy = await legacyTransferToNewcomer();
    await expect.poll(() => row(legacy.body.signature).getAttribute('data-operation'), { timeout: LIVE }).toBe('legacy');
    await expect.poll(() => row(legacy.body.signature).getAttribute('data-status'), { timeout: LIVE }).toBe('Finalized');
    await screenshot(page, 'relays');
    expect(await seriousViolations('relays')).toEqual([]);

    // The transfer's detail: decoded instructions, signatures, balances, logs, the journaled request.
    await row(signature).locator('a').click();
    await expect.poll(() => page.locator('#detail-status').textContent(), { timeout: LIVE }).toBe('Finalized');
    expect(page.url()).toBe(`${server.origin}/tx/${signature}`);
    expect(await page.locator('#detail-instructions').textContent()).toContain('spl-token: transferChecked');
    expect(await page.locator('#detail-signatures').textContent()).toContain(signature);
    expect(await page.locator('#detail-logs').textContent()).toContain('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success');
    expect(await page.locator('#detail-request').textContent()).toContain('/api/Transaction/send');
    await screenshot(page, 'detail-transfer');
    expect(await seriousViolations('detail-transfer')).toEqual([]);

    // The refused one's detail: the problem body with its rule, and the instruction it carried.
    await page.goBack();
    await refusedRow.locator('a').click();
    await expect.poll(() => page.locator('#detail-status').textContent(), { timeout: LIVE }).toBe('Refused');
    expect(await page.locator('#detail-problem').textContent()).toContain('FEE_PAYER_MISUSE');
    expect(await page.locator('#detail-problem').textContent()).toContain('F1');
    expect(await page.locator('#detail-instructions').textContent()).toContain('system: transfer');
    await screenshot(page, 'detail-refused');
    expect(await seriousViolations('detail-refused')).toEqual([]);

    // The legacy record's explorer link leads to this UI's detail view of it.
    expect(legacy.body.explorerUrl).toBe(`${server.origin}/tx/${legacy.body.signature}`);
    await page.goto(legacy.body.explorerUrl);
    await expect.poll(() => page.locator('#detail-status').textContent(), { timeout: LIVE }).toBe('Finalized');
    expect(await page.locator('#detail-legacy').textContent()).toContain(legacy.body.id);
  });

  it('lists Kora’s refusals with the kora.toml key that refused them, and Kora’s sends, beside the relay’s', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: LIVE }).toBe('Live');
    await server.emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
    const kora = koraCaller(`${server.origin}/kora`);
    const { blockhash: hash } = (await kora('getBlockhash')).result;
    const drain = build({
      instructions: [SystemProgram.transfer({ fromPubkey: FEE_PAYER, toPubkey: BOB.publicKey, lamports: 1_000_000 })],
      blockhash: hash,
      signers: [],
    });
    expect((await kora('signAndSendTransaction', { transaction: drain })).error?.message).toBe(
      "Invalid transaction: Fee payer cannot be used for 'System Transfer'",
    );
    const refusedByKora = page.locator('#relay-table tr[data-operation="kora"][data-status="Refused"]');
    await expect.poll(() => refusedByKora.count(), { timeout: LIVE }).toBe(1);
    expect(await refusedByKora.locator('.policy').textContent()).toBe('refused · rule validation.fee_payer_policy.system.allow_transfer');
    const transfer = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1_000n)], blockhash: hash, signers: [ALICE] });
    const { signature } = (await kora('signAndSendTransaction', { transaction: transfer })).result;
    await expect.poll(() => row(signature).getAttribute('data-operation'), { timeout: LIVE }).toBe('kora');
    await expect.poll(() => row(signature).getAttribute('data-status'), { timeout: LIVE }).toMatch(/^(Confirmed|Finalized)$/);
    expect(await row(signature).locator('.policy').textContent()).toBe('passed');
    expect(await seriousViolations('relays-kora')).toEqual([]);
  });

  it('funds a wallet from the UI and shows the balance change live', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await page.locator('#lookup-address').fill(wallet);
    await page.locator('#lookup button').click();
    await expect.poll(() => page.locator('#wallet-sol').getAttribute('data-lamports'), { timeout: LIVE }).toBe('0');
    expect(page.url()).toBe(`${server.origin}/address/${wallet}`);
    await page.locator('#wallet-faucet-sol').fill('2.5');
    await page.locator('#wallet-faucet button[value="fund"]').click();
    await expect.poll(() => page.locator('#wallet-sol').getAttribute('data-lamports'), { timeout: LIVE }).toBe('2500000000');
    expect(await page.locator('#wallet-sol').textContent()).toBe('2.5 SOL');
    expect((await server.emulator.getAccount(wallet))?.lamports).toBe(2_500_000_000n);
    await screenshot(page, 'wallet');
    expect(await seriousViolations('wallet')).toEqual([]);
  });

  it('shows a ledger time no date can hold as its seconds, on the wallet and detail pages (issue 53 item 15)', async () => {
    const far = await startServer({ port: 0 });
    try {
      const rpc = async (method: string, params: unknown[]) =>
        (await (
          await fetch(far.emulator.config.rpcUrl, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          })
        ).json()) as {
          result?: unknown;
          error?: { message: string };
        };
      // Past what the ledger's clock counts: refused in one line.
      expect((await rpc('surfnet_timeTravel', [{ absoluteEpoch: 2 ** 40 }])).error?.message).toMatch(
        /^Cannot travel to epoch 1099511627776: the clock goes no further than slot 9007199254740991$/,
      );
      // Within it, but past what a JavaScript date holds (8.64e15 ms): the pages show the seconds.
      expect((await rpc('surfnet_timeTravel', [{ absoluteTimestamp: 9e15 }])).error).toBeUndefined();
      const wallet = Keypair.generate().publicKey.toBase58();
      const signature = (await rpc('requestAirdrop', [wallet, 1_000_000_000])).result as string;
      await far.emulator.settle();
      await page.goto(`${far.origin}/address/${wallet}`);
      await expect.poll(() => page.locator('main').textContent(), { timeout: LIVE }).toContain('9000000000000 (unix seconds, past what a date can show)');
      await page.goto(`${far.origin}/tx/${signature}`);
      await expect.poll(() => page.locator('main').textContent(), { timeout: LIVE }).toContain('9000000000000 (unix seconds, past what a date can show)');
    } finally {
      // Away first: closing the server under the page would cut its live stream.
      await page.goto(server.origin);
      await far.close();
    }
  });

  it('resets from the UI: the list empties and the fee payer is back at its start', async () => {
    await page.locator('.brand').click();
    await expect.poll(() => page.locator('#relay-table tbody tr[data-id]').count(), { timeout: LIVE }).toBeGreaterThan(0);
    await page.locator('#controls summary').click();
    await page.locator('#reset button').click();
    await expect.poll(() => page.locator('#relay-table tbody tr[data-id]').count(), { timeout: LIVE }).toBe(0);
    expect(server.emulator.transactionJournal()).toEqual([]);
    await expect
      .poll(() => page.locator('#fee-payer-balance').getAttribute('data-lamports'), { timeout: LIVE })
      .toBe(String((await server.emulator.getAccount(FEE_PAYER))?.lamports));
    await screenshot(page, 'after-reset');
  });

  it('puts the relays list first at 1400×900, explains a failure by name with the raw error beside it, and lists a refused config read', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    // A transfer of more than alice holds, submitted without preflight so that it lands and fails on the ledger.
    const failing = build({
      instructions: [transferInstruction(ALICE, ALICE.publicKey, 10n ** 15n, { checked: true })],
      blockhash: await blockhash(),
      signers: [ALICE],
    });
    const signature = (await api('POST', '/api/Transaction/send', { signedTransaction: failing })).body.signature as string;
    // A config read with a wrong key: refused on a route that relays nothing.
    expect((await fetch(`${server.origin}/api/Transaction/config`, { headers: { 'X-API-Key': 'not-the-key' } })).status).toBe(401);
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('#relay-table tr[data-operation="request"]').count(), { timeout: LIVE }).toBeGreaterThan(0);
    const request = page.locator('#relay-table tr[data-operation="request"]').first();
    expect(await request.textContent()).toMatch(/request getConfig.*Refused 401.*API_KEY_INVALID/);
    // The list is the main view: it starts within the first screen, and the controls are folded.
    const table = await page.locator('#relays').boundingBox();
    expect(table!.y).toBeLessThan(300);
    expect(await page.locator('#controls').getAttribute('open')).toBeNull();
    expect(await page.locator('#queue').isVisible()).toBe(false);
    await page.screenshot({ path: await screenshot(page, 'home-first-screen').then((path) => path.replace('.png', '-viewport.png')), fullPage: false });
    expect(await seriousViolations('home-first-screen')).toEqual([]);

    await expect.poll(() => row(signature).getAttribute('data-status'), { timeout: LIVE }).toBe('Failed');
    expect(await row(signature).locator('.error-text').textContent()).toBe(
      'instruction 1 (spl-token transferChecked): InsufficientFunds {"InstructionError":[0,{"Custom":1}]}',
    );
    await row(signature).locator('a').click();
    await expect.poll(() => page.locator('#detail-status').textContent(), { timeout: LIVE }).toBe('Failed');
    expect(await page.locator('#detail-error').textContent()).toBe(
      'instruction 1 (spl-token transferChecked): InsufficientFunds {"InstructionError":[0,{"Custom":1}]}',
    );
    // Names before addresses: the mint of its token balances is USDC, the signer alice.
    expect(await page.locator('#detail-tokens').textContent()).toContain('USDC');
    expect(await page.locator('#detail-accounts').textContent()).toContain('alice');
    expect(await page.locator('#detail-summary').textContent()).toMatch(/Block time.*the ledger's clock/);
    await screenshot(page, 'detail-failed');
    expect(await seriousViolations('detail-failed')).toEqual([]);
    // The wallet's history says the same.
    await page.goto(`${server.origin}/address/${ALICE.publicKey.toBase58()}`);
    await expect
      .poll(() => page.locator('#wallet-history').textContent(), { timeout: LIVE })
      .toContain('failed: instruction 1 (spl-token transferChecked): InsufficientFunds');
  });

  it('lists the accounts a v0 transaction loaded, each with the lookup table it came from', async () => {
    const connection = new Connection(`${server.origin}/rpc`, 'confirmed');
    const payer = Keypair.generate();
    await server.emulator.faucet({ address: payer.publicKey, lamports: 1_000_000_000n });
    const holder = Keypair.generate().publicKey;
    const send = async (instructions: TransactionInstruction[], tables: AddressLookupTableAccount[] = []) => {
      const { blockhash: recent } = await connection.getLatestBlockhash();
      const tx = new VersionedTransaction(
        new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: recent, instructions }).compileToV0Message(tables),
      );
      tx.sign([payer]);
      const signature = await connection.sendRawTransaction(tx.serialize());
      expect((await connection.confirmTransaction(signature, 'confirmed')).value.err).toBeNull();
      return signature;
    };
    const [create, address] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: await connection.getSlot(),
    });
    await send([
      create,
      AddressLookupTableProgram.extendLookupTable({ lookupTable: address, authority: payer.publicKey, payer: payer.publicKey, addresses: [holder] }),
    ]);
    await server.emulator.warp({ slots: 1 });
    const { value: lookup } = await connection.getAddressLookupTable(address);
    const signature = await send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: holder, lamports: 5_000_000 })], [lookup!]);
    await page.goto(`${server.origin}/tx/${signature}`);
    await expect.poll(() => page.locator('#detail-accounts').textContent(), { timeout: LIVE }).toContain(holder.toBase58());
    const loadedRow = page.locator('#detail-accounts tr', { hasText: holder.toBase58() });
    expect(await loadedRow.textContent()).toContain('writable, loaded from table');
    expect(await loadedRow.locator(`a[title="${address.toBase58()}"]`).count()).toBe(1);
    await screenshot(page, 'detail-lookup-table');
    expect(await seriousViolations('detail-lookup-table')).toEqual([]);
  });

  it('decodes the Kin app memo of a legacy transfer and names its route; notes the rent a create leaves the fee payer to get back', async () => {
    const legacy = await legacyTransferToNewcomer();
    await page.goto(`${server.origin}/tx/${legacy.body.signature}`);
    await expect.poll(() => page.locator('#detail-status').textContent(), { timeout: LIVE }).toMatch(/Confirmed|Finalized/);
    expect(await page.locator('#detail-summary').textContent()).toContain('legacy make-transfer');
    const memo = page.locator('#detail-instructions li.app-memo');
    expect(await memo.textContent()).toMatch(/Kin app memo.*App index1.*Transaction type0 \(none\).*Memo version1.*Foreign keynone/);
    // Only the memo instruction reads as one (not the inner instructions the ATA program made).
    expect(await page.locator('#detail-instructions li.app-memo').count()).toBe(1);
    expect(await page.locator('#detail-inner li.app-memo').count()).toBe(0);
    // The recipient's account was created with its close authority handed to the fee payer: its rent comes back.
    expect(await page.locator('#detail-rent').textContent()).toMatch(
      /^The fee payer also paid 2,039,280 lamports \(0\.00203928 SOL\) of rent .* comes back to the fee payer when the account is closed/,
    );
    await screenshot(page, 'detail-legacy-memo');
    expect(await seriousViolations('detail-legacy-memo')).toEqual([]);
  });

  it('exports the state to a file and imports it back from the controls, and Fund says SOL', async () => {
    await page.goto(`${server.origin}/#controls`);
    await expect.poll(() => page.locator('#controls').getAttribute('open'), { timeout: LIVE }).toBe('');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#state button[value="export"]').click()]);
    expect(download.suggestedFilename()).toMatch(/^relay-emulator-state-[\dT-]+Z\.json$/);
    const path = await download.path();
    expect(JSON.parse(readFileSync(path!, 'utf8'))).toMatchObject({ format: 'relay-emulator-state', checksum: expect.stringMatching(/^crc32:/) });
    await expect
      .poll(() => page.locator('#control-result').textContent(), { timeout: LIVE })
      .toMatch(/^Export: saved relay-emulator-state-.*\.json \([\d,]+ bytes\)$/);
    const before = server.emulator.transactionJournal().length;
    await server.emulator.reset();
    await page.locator('#state-file').setInputFiles(path!);
    await page.locator('#state button[value="import"]').click();
    await expect.poll(() => page.locator('#control-result').textContent(), { timeout: LIVE }).toMatch(/^Import: .*: \d+ transactions, 0 queued again$/);
    expect(server.emulator.transactionJournal().length).toBe(before);
    // Fund takes SOL and answers in SOL.
    await page.locator('#faucet-address').fill(BOB.publicKey.toBase58());
    await page.locator('#faucet-sol').fill('1.5');
    await page.locator('#faucet button[value="fund"]').click();
    await expect.poll(() => page.locator('#control-result').textContent(), { timeout: LIVE }).toMatch(/^Fund: \w+ now holds [\d,.]+ SOL \(\d+ lamports\)$/);
    await screenshot(page, 'controls-open');
    expect(await seriousViolations('controls-open')).toEqual([]);
  });

  it('names the engine in the overview: the server’s default, and bankrun for an emulator made with it', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('#engine').textContent(), { timeout: LIVE }).toBe(server.emulator.config.engine);
    expect(server.emulator.config.engine).toBe('litesvm'); // This file runs once, in the litesvm project.
    // The other engine, served by an in-process emulator's loopback listener (it serves the page too).
    const emulator = await createRelayEmulator({ engine: 'bankrun' });
    const other = await browser.context.newPage();
    const otherTrouble = pageTrouble(other);
    try {
      await other.goto(`${emulator.loopbackOrigin}/`);
      await expect.poll(() => other.locator('#engine').textContent(), { timeout: LIVE }).toBe('bankrun');
      expect(otherTrouble).toEqual([]);
    } finally {
      await other.close();
      await emulator.close();
    }
  });

  it('lists the app’s programs in the overview, by their .so’s name', async () => {
    const reader = await createRelayEmulator({ loopback: false });
    const elf = (await reader.getAccount('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'))!.data;
    await reader.close();
    const folder = mkdtempSync(join(tmpdir(), 'relay-emulator-ui-programs-'));
    writeFileSync(join(folder, 'my_program.so'), elf);
    const programId = Keypair.generate().publicKey.toBase58();
    const emulator = await createRelayEmulator({ programs: [{ programId, path: join(folder, 'my_program.so'), upgradeAuthority: null }] });
    const other = await browser.context.newPage();
    const otherTrouble = pageTrouble(other);
    try {
      await other.goto(`${emulator.loopbackOrigin}/`);
      await expect
        .poll(() => other.locator('#programs li').allTextContents(), { timeout: LIVE })
        .toEqual([expect.stringMatching(/^my_program \S+ upgradeable, loaded at start$/)]);
      expect(await other.locator('#programs a').getAttribute('href')).toContain(`address/${programId}`);
      expect(otherTrouble).toEqual([]);
    } finally {
      await other.close();
      await emulator.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('shows an Anchor program’s instruction by its IDL, and its framework error by name', async () => {
    const workspace = fileURLToPath(new URL('../real-clients/anchor/workspace', import.meta.url));
    const emulator = await createRelayEmulator({ anchor: workspace, skipPreflight: true });
    const other = await browser.context.newPage();
    const otherTrouble = pageTrouble(other);
    try {
      const idl = JSON.parse(readFileSync(join(workspace, 'target/idl/puppet.json'), 'utf8'));
      const setData = new TransactionInstruction({
        programId: new PublicKey(idl.address),
        keys: [{ pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true }],
        data: Buffer.concat([Buffer.from(idl.instructions[1].discriminator), Buffer.from(new BigUint64Array([5n]).buffer)]),
      });
      const call = async (path: string, body?: unknown) =>
        (await emulator
          .fetch(
            new Request(`${emulator.config.baseUrl}${path}`, {
              method: body === undefined ? 'GET' : 'POST',
              headers: { 'Content-Type': 'application/json', 'X-API-Key': emulator.config.apiKey },
              body: body === undefined ? undefined : JSON.stringify(body),
            }),
          )
          .then((response) => response.json())) as Record<string, string>;
      const { Blockhash } = await call('/Transaction/blockhash');
      const { signature } = await call('/Transaction/send', { signedTransaction: build({ instructions: [setData], blockhash: Blockhash!, signers: [] }) });
      await emulator.settle();
      await other.goto(`${emulator.loopbackOrigin}/tx/${signature}`);
      await expect.poll(() => other.locator('.idl-instruction .instruction-name').textContent(), { timeout: LIVE }).toBe('puppet: set_data');
      expect(await other.locator('.idl-instruction').textContent()).toContain('data (u64)5');
      expect(await other.locator('#detail-error').textContent()).toContain('instruction 1 (puppet set_data): AccountNotInitialized');
      expect(otherTrouble).toEqual([]);
    } finally {
      await other.close();
      await emulator.close();
    }
  });

  it('has an accessibility check that finds what it looks for', async () => {
    // The check above would pass on a page axe never ran in; here it must find an unlabelled field.
    const probe = await browser.context.newPage();
    await probe.setContent('<!doctype html><html lang="en"><head><title>probe</title></head><body><main><input id="unlabelled"></main></body></html>');
    const found = await accessibilityViolations(probe, 'probe');
    expect(found.map((violation) => violation.id)).toContain('label');
    expect(found.find((violation) => violation.id === 'label')?.impact).toBe('critical');
    await probe.close();
  });

  it('asks for the admin token where the guard wants one, and takes it once from ?token=', async () => {
    await page.goto('about:blank'); // The first page would meet the guard too: its 401s are no trouble of this test.
    server.emulator.admin.requireToken('ui-test-token');
    try {
      const stranger = await browser.context.newPage();
      await stranger.goto(`${server.origin}/`);
      await expect.poll(() => stranger.locator('#token-title').textContent(), { timeout: LIVE }).toBe('Admin token needed');
      expect(await stranger.locator('#fee-payer-balance').count()).toBe(0);
      await stranger.locator('#admin-token').fill('wrong');
      await stranger.locator('#admin-token + button').click();
      await expect.poll(() => stranger.locator('#token-title').isVisible(), { timeout: LIVE }).toBe(true);
      await screenshot(stranger, 'token-needed');
      expect(
        (await accessibilityViolations(stranger, 'token-needed')).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
      ).toEqual([]);
      await stranger.close();

      const holder = await browser.context.newPage();
      const holderTrouble = pageTrouble(holder);
      await holder.goto(`${server.origin}/?token=ui-test-token`);
      await expect.poll(() => holder.locator('#live').textContent(), { timeout: LIVE }).toBe('Live');
      await expect.poll(() => holder.locator('#fee-payer-balance').getAttribute('data-lamports'), { timeout: LIVE }).toMatch(/^\d+$/);
      expect(holder.url()).toBe(`${server.origin}/`); // The token left the address at once.
      await holder.locator('#controls summary').click();
      await holder.locator('#clock button[value="warp"]').click();
      await expect.poll(() => holder.locator('#control-result').textContent(), { timeout: LIVE }).toMatch(/^Warp: slot \d+/);
      expect(holderTrouble).toEqual([]);
      await holder.close();
    } finally {
      server.emulator.admin.requireToken(null);
    }
  });
});
