import type { Keypair } from '@solana/web3.js';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnEmulator, untilHealthy, type EmulatorProcess } from '../support/emulator-process.ts';
import { listSegments, segmentPath } from '../../src/adapters/server/journal-segments.ts';
import { assertFetchResponseMatchesSpec } from '../support/openapi.ts';
import { ALICE, ata, build, createAtaInstructions, transferInstruction } from '../support/transactions.ts';
import { newKeypair } from '../support/keys.ts';

const API_KEY = 'relay-emulator-dev-key';

/** `relay-emulator start --state-file` stopped and started again: what a restart serves, and from when. */
describe('restart on a state file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-restart-'));
  const processes: EmulatorProcess[] = [];
  afterAll(async () => {
    for (const started of processes) await started.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });
  const start = (port: number, stateFile: string, ...args: string[]) => {
    const started = spawnEmulator({ port, args: ['--state-file', stateFile, '--log-level', 'warn', ...args] });
    processes.push(started);
    return started;
  };
  const client = (origin: string) => {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { 'X-API-Key': API_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response)) as any };
    };
    return {
      call,
      blockhash: async () => (await call('GET', '/api/Transaction/blockhash')).body.Blockhash as string,
      send: async (signedTransaction: string) => {
        const response = await call('POST', '/api/Transaction/send', { signedTransaction });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body.signature as string;
      },
      history: async (address: string) =>
        (await call('POST', `/api/Account/gethistory?WalletAddress=${address}`)).body.transactions.map(
          (entry: { signature: string }) => entry.signature,
        ) as string[],
      tokens: async (owner: Keypair) => {
        const { status, body } = await call('GET', `/__emulator/accounts/${ata(owner.publicKey).toBase58()}`);
        return status === 404 ? null : Buffer.from(body.data, 'base64').readBigUInt64LE(64);
      },
      statusOf: async (signature: string) =>
        (await call('GET', `/__emulator/journal/transactions?signature=${signature}`)).body.transactions[0]?.status as string | undefined,
    };
  };

  it('serves the history it saved at once, and reset goes back to the fixtures every time', async () => {
    const port = await freePort();
    const stateFile = join(directory, 'history.json');
    const owner = newKeypair();
    let server = start(port, stateFile);
    await untilHealthy(server);
    const first = client(server.origin);
    const aliceAtStart = await first.tokens(ALICE);
    const signature = await first.send(
      build({
        instructions: [...createAtaInstructions(owner.publicKey), transferInstruction(ALICE, owner.publicKey, 321n)],
        blockhash: await first.blockhash(),
        signers: [ALICE, owner],
      }),
    );
    await expect.poll(() => first.statusOf(signature)).toBe('processed');
    expect(await first.history(owner.publicKey.toBase58())).toEqual([signature]);
    expect(await server.stop('SIGINT')).toBe(0);

    server = start(port, stateFile);
    await untilHealthy(server);
    const second = client(server.origin);
    // The first request after /health answers sees the saved state.
    expect(await second.history(owner.publicKey.toBase58())).toEqual([signature]);
    expect(await second.history(ALICE.publicKey.toBase58())).toEqual([signature]);
    expect(await second.tokens(owner)).toBe(321n);
    for (let round = 0; round < 3; round += 1) {
      expect((await second.call('POST', '/__emulator/reset')).status).toBe(200);
      expect(await second.history(owner.publicKey.toBase58())).toEqual([]);
      expect(await second.history(ALICE.publicKey.toBase58())).toEqual([]);
      expect(await second.tokens(owner)).toBeNull();
      expect(await second.tokens(ALICE)).toBe(aliceAtStart);
    }
    // The reset is state too: a restart after it still shows the fixtures.
    expect(await server.stop('SIGTERM')).toBe(0);
    server = start(port, stateFile);
    await untilHealthy(server);
    expect(await client(server.origin).history(ALICE.publicKey.toBase58())).toEqual([]);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 120_000);

  it('answers /health 503 starting until the state is restored, holds other requests until then, and runs each relay once', async () => {
    const port = await freePort();
    const stateFile = join(directory, 'large.json');
    let server = start(port, stateFile);
    await untilHealthy(server);
    const first = client(server.origin);
    // A state worth loading: many records in the file (each relay is ~3 KB of it).
    const owner = newKeypair();
    const created = await first.send(
      build({
        instructions: [...createAtaInstructions(owner.publicKey), transferInstruction(ALICE, owner.publicKey, 1n)],
        blockhash: await first.blockhash(),
        signers: [ALICE, owner],
      }),
    );
    await expect.poll(() => first.statusOf(created)).toBe('processed');
    for (let batch = 0n; batch < 10n; batch += 1n) {
      const hash = await first.blockhash();
      const amounts = Array.from({ length: 30 }, (_, index) => batch * 30n + BigInt(index) + 1n);
      await Promise.all(
        amounts.map((amount) => first.send(build({ instructions: [transferInstruction(ALICE, owner.publicKey, amount)], blockhash: hash, signers: [ALICE] }))),
      );
    }
    await expect.poll(async () => (await first.call('GET', '/__emulator/queue')).body.pending, { timeout: 60_000 }).toBe(0);
    // Two acknowledged but still queued when it stops; and a blockhash handed out before the stop.
    await first.call('POST', '/__emulator/queue/pause');
    const queued = [
      await first.send(build({ instructions: [transferInstruction(ALICE, owner.publicKey, 1_000n)], blockhash: await first.blockhash(), signers: [ALICE] })),
      await first.send(build({ instructions: [transferInstruction(ALICE, owner.publicKey, 2_000n)], blockhash: await first.blockhash(), signers: [ALICE] })),
    ];
    const blockhash = await first.blockhash();
    const balanceBefore = (await first.tokens(owner))!;
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(statSync(stateFile).size).toBeGreaterThan(500_000);

    server = start(port, stateFile);
    // As soon as the port opens: /health says starting, and a relay sent now waits for the restored state.
    const seen: number[] = [];
    let relay: Promise<string> | null = null;
    for (let tries = 0; tries < 3_000 && seen.at(-1) !== 200; tries += 1) {
      let status = -1;
      try {
        const response = await fetch(`${server.origin}/health`);
        status = response.status;
        if (status === 503) expect(await assertFetchResponseMatchesSpec('GET', '/health', response)).toEqual({ status: 'starting' });
        else await response.body?.cancel();
      } catch (error) {
        if (status !== -1) throw error;
        // Not listening yet.
      }
      if (seen.at(-1) !== status) seen.push(status);
      if (status === 503 && relay === null) {
        relay = client(server.origin).send(build({ instructions: [transferInstruction(ALICE, owner.publicKey, 5_000n)], blockhash, signers: [ALICE] }));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen.at(-1)).toBe(200);
    expect(seen).toContain(503);
    expect(relay).not.toBeNull();
    const held = await relay!;
    const second = client(server.origin);
    // The restored queue kept its setting; each of the three relays is queued once.
    expect((await second.call('GET', '/__emulator/queue')).body).toMatchObject({ paused: true, pending: 3 });
    await second.call('POST', '/__emulator/queue/resume');
    for (const signature of [...queued, held]) await expect.poll(() => second.statusOf(signature)).toBe('processed');
    expect(await second.tokens(owner)).toBe(balanceBefore + 8_000n);
    const history = await second.history(owner.publicKey.toBase58());
    expect(history.slice(0, 3)).toEqual([held, queued[1], queued[0]]);
    expect(new Set(history).size).toBe(history.length);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 180_000);

  it('refuses a start whose newest journal segment was deleted after a restart and a kill -9, naming it, rather than serve without its relays', async () => {
    // Issue 34, item 4: the segment a restart opens was recorded nowhere, so deleting it read as a quiet stop.
    const port = await freePort();
    const stateFile = join(directory, 'deleted-newest.json');
    const owner = newKeypair();
    const relay = async (target: ReturnType<typeof client>, amount: bigint, create: boolean) => {
      const signature = await target.send(
        build({
          instructions: [...(create ? createAtaInstructions(owner.publicKey) : []), transferInstruction(ALICE, owner.publicKey, amount)],
          blockhash: await target.blockhash(),
          signers: create ? [ALICE, owner] : [ALICE],
        }),
      );
      await expect.poll(() => target.statusOf(signature)).toBe('processed');
    };
    let server = start(port, stateFile);
    await untilHealthy(server);
    await relay(client(server.origin), 1n, true);
    expect(await server.stop('SIGINT')).toBe(0);
    const segmentsAfterStop = await listSegments(stateFile);

    server = start(port, stateFile);
    await untilHealthy(server);
    const second = client(server.origin);
    for (let index = 0; index < 6; index += 1) await relay(second, 1n, false);
    expect(await second.tokens(owner)).toBe(7n);
    expect(await server.stop('SIGKILL')).toBe('SIGKILL');
    const newest = (await listSegments(stateFile)).at(-1)!;
    expect(segmentsAfterStop).not.toContain(newest);
    rmSync(segmentPath(stateFile, newest));

    server = start(port, stateFile);
    // Without the check it serves (2 of 8 tokens): say so at once rather than wait for an exit.
    expect(
      await Promise.race([
        server.exited,
        untilHealthy(server.origin, 15_000).then(
          () => 'served without its newest segment',
          () => 'neither served nor exited',
        ),
      ]),
    ).toBe(1);
    expect(server.output()).toContain(`${segmentPath(stateFile, newest)} is damaged: it is missing`);
    expect(server.output()).toMatch(/The entries it held are lost: restore it from a copy, or move .* away to start empty\./);
  }, 180_000);

  it('refuses a journal entry changed after a kill -9, naming --accept-state-loss; with it, serves what precedes the entry and says what was cut', async () => {
    // Issue 45, item 7: the advice was `truncate -s N`, after which the segment's header still said more was synced, and the start refused again.
    const port = await freePort();
    const stateFile = join(directory, 'changed-entry.json');
    const owner = newKeypair();
    let server = start(port, stateFile);
    await untilHealthy(server);
    const first = client(server.origin);
    const signatures: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const signature = await first.send(
        build({
          instructions: [...(index === 0 ? createAtaInstructions(owner.publicKey) : []), transferInstruction(ALICE, owner.publicKey, 1n)],
          blockhash: await first.blockhash(),
          signers: index === 0 ? [ALICE, owner] : [ALICE],
        }),
      );
      await expect.poll(() => first.statusOf(signature)).toBe('processed');
      signatures.push(signature);
    }
    expect(await first.tokens(owner)).toBe(3n);
    expect(await server.stop('SIGKILL')).toBe('SIGKILL');
    const segment = segmentPath(stateFile, (await listSegments(stateFile)).at(-1)!);
    const bytes = readFileSync(segment);
    const lines = bytes.toString('utf8').split('\n');
    // Each relay journals four entries (its blockhash, the submission, the ledger's write, its status): cut at the third's submission.
    expect(lines.at(-4)).toMatch(new RegExp(`^[0-9a-f]{8} \\[\\["submissions",\\{"op":"insert","submission":\\{"signature":"${signatures[2]}"`));
    const cut = Buffer.byteLength(lines.slice(0, -4).join('\n')) + 1;
    const changed = Buffer.from(bytes);
    changed[cut + 20]! ^= 1;
    writeFileSync(segment, changed);

    server = start(port, stateFile);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`${segment} is damaged at byte ${cut}: the entry there fails its checksum`);
    expect(server.output()).toContain('start once with --accept-state-loss');
    expect(readFileSync(segment)).toEqual(changed);

    server = start(port, stateFile, '--accept-state-loss');
    await untilHealthy(server);
    expect(server.output()).toMatch(
      new RegExp(
        `--accept-state-loss cut ${segment} at byte ${cut}: ${bytes.length - cut} byte\\(s\\) of acknowledged changes after it are lost ` +
          `\\(copies: ${segment}\\.damaged-`,
      ),
    );
    // The first two relays are served; the third, cut, is not known.
    expect(await client(server.origin).tokens(owner)).toBe(2n);
    expect(await client(server.origin).statusOf(signatures[1]!)).toBe('processed');
    expect(await client(server.origin).statusOf(signatures[2]!)).toBeUndefined();
    expect(await server.stop('SIGINT')).toBe(0);
    // The next start needs no flag, and serves the same.
    server = start(port, stateFile);
    await untilHealthy(server);
    expect(await client(server.origin).tokens(owner)).toBe(2n);
    expect(await server.stop('SIGINT')).toBe(0);
  }, 180_000);
});
