/**
 * The conformance kit's `--interface kora` (issue 27) against the emulator's Kora: in process
 * with its default config and with Kora's own test fixture (a margin price, liveness disabled, a
 * fee payer allowed to transfer), on a port through the command with [kora.auth] credentials,
 * and against a Kora whose getConfig lost a field, which it must call not conformant.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTable, type RelayEmulator, createRelayEmulator, runConformance } from '../../src/index.ts';
import { runConformanceCommand } from '../../src/conformance/command.ts';
import { startCli } from '../support/cli-process.ts';
import { COMPUTE_BUDGET_PROGRAM, koraToml, SYSTEM_PROGRAM } from '../support/kora.ts';

const FIXTURE = fileURLToPath(new URL('../real-clients/kora-sdk/kora-test.toml', import.meta.url));
const koraResults = (report: Awaited<ReturnType<typeof runConformance>>) =>
  Object.fromEntries(report.results.filter((r) => r.id.startsWith('kora.') || r.id.startsWith('contract.kora')).map((r) => [r.id, r.status]));

describe('conformance --interface kora', () => {
  const emulators: RelayEmulator[] = [];
  afterAll(() => Promise.all(emulators.map((emulator) => emulator.close())));
  const start = async (options: Parameters<typeof createRelayEmulator>[0] = {}) => {
    const emulator = await createRelayEmulator(options);
    emulators.push(emulator);
    return emulator;
  };
  const check = (emulator: RelayEmulator, fetch: (request: Request) => Promise<Response> = emulator.fetch) =>
    runConformance({ baseUrl: emulator.config.koraUrl, interface: 'kora', kora: { url: emulator.config.koraUrl }, fetch, timeoutMs: 15_000 });

  it('finds the default Kora conformant: every Kora check passes, and the relay’s are not listed', async () => {
    const report = await check(await start());
    expect(report.summary.verdict, formatTable(report)).toBe('conformant');
    const results = koraResults(report);
    // 11 checks of Kora's behaviour, and its two operations held to the contract.
    expect(Object.keys(results)).toHaveLength(13);
    expect(results).toMatchObject({ 'contract.koraJsonRpc': 'pass', 'contract.koraLiveness': 'pass' });
    expect(
      Object.values(results).every((status) => status === 'pass'),
      formatTable(report),
    ).toBe(true);
    expect(report.results.filter((r) => !r.id.startsWith('kora.') && !r.id.startsWith('contract.kora')).map((r) => r.id)).toEqual([]);
  });

  it('finds Kora’s own test config conformant, by its other branches (margin price, liveness off, transfers allowed)', async () => {
    const report = await check(await start({ kora: { config: FIXTURE } }));
    expect(report.summary.verdict, formatTable(report)).toBe('conformant');
    const reasons = Object.fromEntries(report.results.map((r) => [r.id, r.reason]));
    expect(reasons['kora.sign-transaction']).toMatch(/^Invalid transaction: Insufficient token payment\. Required \d+ lamports$/);
    expect(reasons['kora.fee-payer-protected']).toBe('Invalid transaction: Total transfer amount 1000001 exceeds maximum allowed 1000000');
  });

  it('calls a Kora whose getConfig lost enabled_methods not conformant', async () => {
    const emulator = await start();
    const broken = async (request: Request) => {
      const response = await emulator.fetch(request.clone());
      const body = (await request.json().catch(() => null)) as { method?: string } | null;
      if (body?.method !== 'getConfig') return response;
      const answer = (await response.json()) as { result: Record<string, unknown> };
      delete answer.result.enabled_methods;
      return Response.json(answer);
    };
    const report = await check(emulator, broken);
    expect(report.summary.verdict).toBe('not-conformant');
    expect(report.results.find((r) => r.id === 'kora.get-config')).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/enabled_methods\.liveness/),
    });
  });

  it('runs as the command against --kora-port with [kora.auth] credentials, exit 0', async () => {
    const file = koraToml({ kora: ['[kora.auth]', 'api_key = "k"', 'hmac_secret = "s"'], programs: [SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM] });
    const cli = await startCli(['--kora-port', '0', '--kora-config', file, '--log-level', 'warn']);
    try {
      let stdout = '';
      const sink = (keep: boolean) => ({
        write(text: string, done: () => void) {
          if (keep) stdout += text;
          done();
        },
      });
      const io = { stdout: sink(true), stderr: sink(false) };
      const koraUrl = String(cli.ready.koraUrl);
      const base = ['--interface', 'kora', '--kora-url', koraUrl, '--no-color'];
      expect(await runConformanceCommand([...base, '--kora-api-key', 'k', '--kora-hmac-secret', 's'], io), stdout).toBe(0);
      expect(stdout).toMatch(/kora\.auth-refused/);
      // Without the credentials, every call is refused: not conformant.
      expect(await runConformanceCommand(base, io)).toBe(1);
    } finally {
      await cli.stop();
    }
  });
});
