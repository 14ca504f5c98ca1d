/**
 * State on a running server (issue 25.16): `relay-emulator export` from one server and
 * `relay-emulator import` into another, and `start --import`, over real HTTP with the CLI as users
 * run it. The activity exported is the hello-relay examples' (both interfaces); the second server
 * must then answer the same balances, history and records.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/domain/fixtures/load-fixtures.ts';
import { CLI_ARGS, startCli, type CliProcess } from '../support/cli-process.ts';
import { assertFetchResponseMatchesSpec } from '../support/openapi.ts';

const execFileAsync = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = loadFixtures();
const ALICE = fixtures.wallets.find((w) => w.name === 'alice')!.publicKey;
const MINTS = fixtures.mints.map((m) => m.address);

/** The CLI as a user runs it: exit code, stdout and stderr, never a rejection. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...CLI_ARGS, ...args], {
      cwd: REPO,
      env: { ...process.env, RUST_LOG: 'error' },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** What a user compares between two servers: alice's balances and history, every landed relay and legacy record. */
async function observed(server: CliProcess) {
  const post = async (path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': server.apiKey, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.json();
  };
  const relays = (await (await fetch(`${server.origin}/__emulator/relays`)).json()) as {
    relays: { signature: string | null; status: string; operation: string; legacyId: string | null }[];
  };
  return {
    balances: await Promise.all(MINTS.map((mint) => post('/Account/balance', { accountAddress: ALICE, mintAddress: mint }))),
    history: await post(`/Account/gethistory?WalletAddress=${ALICE}`),
    relays: relays.relays
      .filter((r) => r.status !== 'Refused')
      .map((r) => ({ signature: r.signature, status: r.status, operation: r.operation, legacyId: r.legacyId })),
    legacyBalance: await (await fetch(`${server.baseUrl}/account/balance/devnet/1/${ALICE}`)).json(),
  };
}

describe('export and import of a running server’s state', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relay-state-export-'));
  const file = join(dir, 'state.json');
  let source: CliProcess;
  let target: CliProcess;

  beforeAll(async () => {
    [source, target] = await Promise.all([startCli(['--log-level', 'warn']), startCli(['--log-level', 'warn'])]);
    // Activity on both interfaces: the hello-relay examples, as a user runs them.
    for (const example of ['hello-web3.mjs', 'hello-legacy.mjs']) {
      await execFileAsync(process.execPath, [`examples/${example}`], {
        cwd: REPO,
        env: { ...process.env, RELAY_BASE_URL: source.baseUrl, RELAY_API_KEY: source.apiKey },
        timeout: 60_000,
      });
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all([source?.stop(), target?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET /__emulator/state answers the sealed snapshot the contract describes, as a file download', async () => {
    const response = await fetch(`${source.origin}/__emulator/state`);
    await assertFetchResponseMatchesSpec('get', '/__emulator/state', response.clone());
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="relay-emulator-state-[\dT-]+Z\.json"$/);
    expect(await response.json()).toMatchObject({ format: 'relay-emulator-state', version: 2, checksum: expect.stringMatching(/^crc32:[0-9a-f]{8}$/) });
  });

  it('exports with `relay-emulator export --url`, imports with `relay-emulator import --url`: the same balances, history and records', async () => {
    const exported = await cli(['export', '--url', source.origin]);
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(file, exported.stdout);
    const before = await observed(source);
    expect(before.relays.filter((r) => r.legacyId !== null).length).toBeGreaterThan(0);
    expect(before.relays.length).toBeGreaterThanOrEqual(4);
    expect(await observed(target)).not.toEqual(before);

    const imported = await cli(['import', '--url', target.baseUrl, file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      new RegExp(`^imported ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(saved [\\dT:.-]+Z\\): \\d+ transactions, 0 queued again\\n$`),
    );
    expect(await observed(target)).toEqual(before);
  }, 120_000);

  it('PUT /__emulator/state answers as the contract says: 200 with the import result, 422 SNAPSHOT_REFUSED for a changed snapshot', async () => {
    const text = readFileSync(file, 'utf8');
    const put = (body: string) => fetch(`${target.origin}/__emulator/state`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
    const imported = await put(text);
    expect(imported.status).toBe(200);
    expect(await assertFetchResponseMatchesSpec('put', '/__emulator/state', imported)).toMatchObject({ ok: true, queued: 0, transactions: expect.any(Number) });
    const changed = await put(text.replace('"queuePaused":false', '"queuePaused":true'));
    expect(changed.status).toBe(422);
    expect(await assertFetchResponseMatchesSpec('put', '/__emulator/state', changed)).toMatchObject({ code: 'SNAPSHOT_REFUSED' });
  });

  it('refuses a damaged file (one byte changed), naming the checksum, and changes nothing', async () => {
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('"lamports"');
    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, `${text.slice(0, at)}"lamportz"${text.slice(at + 10)}`);
    const before = await observed(target);
    const refused = await cli(['import', '--url', target.origin, damaged]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^relay-emulator import: 422 from http:\/\/127\.0\.0\.1:\d+\/__emulator\/state: SNAPSHOT_REFUSED: /);
    expect(refused.stderr).toMatch(/This snapshot cannot be restored: its checksum is crc32:[0-9a-f]{8}, but its content sums to crc32:[0-9a-f]{8}/);
    expect(await observed(target)).toEqual(before);
  }, 60_000);

  it('starts from an export with `start --import FILE`, and refuses a damaged one or --state-file beside it', async () => {
    const started = await startCli(['--log-level', 'warn', '--import', file]);
    try {
      const expected = await observed(source);
      expect(await observed(started)).toEqual(expected);
    } finally {
      await started.stop();
    }
    const damaged = await cli(['start', '--port', '0', '--import', join(dir, 'damaged.json')]);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/^relay-emulator: cannot import .*damaged\.json: .*checksum/m);
    const both = await cli(['start', '--port', '0', '--import', file, '--state-file', join(dir, 'relay.json')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--import and --state-file/);
  }, 120_000);

  it('says in one line what is wrong: no --url, an unreachable server, a missing file', async () => {
    expect(await cli(['export'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^relay-emulator export: --url is required/) });
    expect(await cli(['import', '--url', target.origin])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give the one FILE to import/) });
    expect(await cli(['import', '--url', target.origin, join(dir, 'missing.json')])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^relay-emulator import: .*missing\.json: cannot be read \(ENOENT\)\n$/),
    });
    const closed = await cli(['export', '--url', 'http://127.0.0.1:9']);
    expect(closed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^relay-emulator export: cannot reach http:\/\/127\.0\.0\.1:9\/__emulator\/state: /),
    });
  }, 90_000);
});
