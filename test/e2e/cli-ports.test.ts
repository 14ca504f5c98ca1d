/**
 * Ports a newcomer collides with (issue 25.4): `exec` took the fixed port 8787 and failed with a
 * bare EADDRINUSE while `npm start` ran. It now takes a free port unless one is given (the command
 * learns it from RELAY_BASE_URL), and a port in use is refused with a message naming `--port 0`.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ARGS } from '../support/cli-process.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  const { RELAY_EMULATOR_PORT: _port, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], { cwd: REPO, env: { ...inherited, RUST_LOG: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('ports in use', () => {
  let holder: Server;
  let held: number;
  beforeAll(async () => {
    // 8787, where an emulator started by `npm start` would be; any free port when 8787 is taken already.
    holder = createServer();
    held = await new Promise<number>((resolve) => {
      holder.once('error', () => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
      holder.listen(8787, '127.0.0.1', () => resolve(8787));
    });
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('exec takes a free port unless told one, so it runs beside another emulator', async () => {
    const { code, output } = await cli(['exec', '--', process.execPath, '-e', 'console.log("base " + process.env.RELAY_BASE_URL)']);
    expect(code, output).toBe(0);
    const port = Number(/base http:\/\/127\.0\.0\.1:(\d+)\/api/.exec(output)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(8787);
  }, 120_000);

  it('refuses a port in use with one line that names --port 0', async () => {
    const { code, output } = await cli(['start', '--port', String(held)]);
    expect(code).toBe(1);
    expect(output.trim()).toMatch(new RegExp(`^relay-emulator: cannot start: .*EADDRINUSE.*${held}.*--port 0 for a free one\\)$`));
  }, 120_000);

  it('refuses an address that is not here, and test-validator a port that is no port, in one line naming the flag (issue 53)', async () => {
    const host = await cli(['start', '--host', '999.1.1.1', '--port', '0']);
    expect(host.code).toBe(1);
    expect(host.output.trim()).toMatch(/^relay-emulator: cannot start: getaddrinfo ENOTFOUND 999\.1\.1\.1 \(the address to listen on is neither/);
    expect(host.output).not.toMatch(/\n\s+at /);
    const port = await cli(['test-validator', '--rpc-port', '-1', '--ledger', 'never-made']);
    expect(port.code).toBe(2);
    expect(port.output).toMatch(/--rpc-port must be a port number from 0 to 65535, not "-1"/);
    expect(port.output).not.toMatch(/--port'/);
  }, 120_000);
});
