import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runStartCommand } from './start-command.ts';

describe('relay-emulator start, stopped by signals', () => {
  /** Runs start on a free port with `signals` as its signal source; resolves once it is ready. */
  async function started(signals: EventEmitter) {
    let output = '';
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const write = (text: string) => {
      output += text;
      if (/^relay-emulator ready /m.test(output)) ready();
    };
    const code = runStartCommand(['--port', '0'], { env: { RUST_LOG: 'error' }, stdout: write, stderr: write, signals: signals as unknown as NodeJS.Process });
    await isReady;
    return { code, output: () => output };
  }

  it('takes the same signal twice at once (Ctrl+C from the terminal, and npm forwarding it) for one request: exit 0', async () => {
    const signals = new EventEmitter();
    const start = await started(signals);
    signals.emit('SIGINT', 'SIGINT');
    signals.emit('SIGINT', 'SIGINT');
    expect(await start.code).toBe(0);
    expect(start.output().match(/SIGINT: shutting down/g)).toHaveLength(1);
    expect(start.output()).not.toContain('again');
  });

  it('still holds the stop signals once done, so that a late duplicate cannot kill the process before it exits', async () => {
    const signals = new EventEmitter();
    const start = await started(signals);
    signals.emit('SIGTERM', 'SIGTERM');
    expect(await start.code).toBe(0);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(signals.listenerCount(signal)).toBe(1);
    signals.emit('SIGINT', 'SIGINT');
  });

  it('listens before it announces itself: a SIGTERM sent the moment the ready line is written stops it cleanly (exit 0)', async () => {
    const signals = new EventEmitter();
    let output = '';
    // Signals exactly when the ready line is written, as a supervisor reading stdout would.
    const write = (text: string) => {
      output += text;
      if (/^relay-emulator ready /m.test(text)) signals.emit('SIGTERM', 'SIGTERM');
    };
    const code = await runStartCommand(['--port', '0'], {
      env: { RUST_LOG: 'error' },
      stdout: write,
      stderr: write,
      signals: signals as unknown as NodeJS.Process,
    });
    expect(code).toBe(0);
    expect(output).toContain('SIGTERM: shutting down');
  });
});
