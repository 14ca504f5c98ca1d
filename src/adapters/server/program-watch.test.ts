/**
 * `--watch` when what appears at a watched path is not a build: the server keeps answering, and the
 * program keeps its IDL. (test/e2e/app-programs.engines.test.ts runs --watch on real rewrites.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../index.ts';
import { createLogger } from './logger.ts';
import { watchPrograms } from './program-watch.ts';

const PUPPET = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';

describe('--watch, a watched IDL replaced by something else', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-watch-'));
  const idlFile = join(dir, 'target/idl/puppet.json');
  const lines: string[] = [];
  let emulator: RelayEmulator;
  let stop: () => void;
  let writer: ChildProcess | undefined;
  beforeAll(async () => {
    cpSync(fileURLToPath(new URL('../../../test/real-clients/anchor/workspace', import.meta.url)), dir, { recursive: true });
    emulator = await createRelayEmulator({ anchor: dir });
    stop = watchPrograms(
      emulator,
      createLogger('info', (line) => lines.push(line)),
    );
  });
  afterAll(async () => {
    stop();
    if (writer?.exitCode === null) writer.kill();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const warned = async (pattern: RegExp) => {
    for (let attempt = 0; attempt < 100 && !lines.some((line) => pattern.test(line)); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    return lines.find((line) => pattern.test(line));
  };

  it('a FIFO: refused at once, not opened to wait for a writer with the whole process', async () => {
    rmSync(idlFile);
    execFileSync('mkfifo', [idlFile]);
    // Without this writer, opening the FIFO to read would block the process for good; with it, until it opens the FIFO.
    writer = spawn('timeout', ['60', 'sh', '-c', 'sleep 50; : > "$0"', idlFile], { stdio: 'ignore' });
    expect(await warned(/keeps its IDL/)).toBe(`--watch: ${idlFile}: is a device, a pipe or a socket, not a regular file; ${PUPPET} keeps its IDL`);
    // Said before the writer ever opened the FIFO: the watch never waited for it (no time asserted).
    expect(writer.exitCode).toBe(null);
    expect(emulator.services.programs.idls.get(PUPPET)?.name).toBe('puppet');
  });

  it('deleted: said, and the IDL stays', async () => {
    lines.length = 0;
    rmSync(idlFile);
    expect(await warned(/keeps its IDL/)).toBe(`--watch: ${idlFile}: cannot be read (ENOENT); ${PUPPET} keeps its IDL`);
    expect(emulator.services.programs.idls.get(PUPPET)?.name).toBe('puppet');
  });
});
