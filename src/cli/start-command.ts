import { resolve } from 'node:path';
import { createLogger, requestLogLine } from '../server/logger.ts';
import { startServer, StateRestoreError } from '../server/start-server.ts';
import { banner } from './banner.ts';
import { parseStartOptions, startUsage, UsageError } from './start-options.ts';

export interface StartIo {
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Where shutdown signals come from. Default: process. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/**
 * `relay-emulator start`: serves the emulator until SIGINT or SIGTERM, then stops accepting
 * requests, lets those in flight answer, saves the state file and closes. Resolves with the exit code.
 */
export async function runStartCommand(argv: string[], io: StartIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  let options;
  try {
    options = parseStartOptions(argv, io.env ?? process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr(`relay-emulator start: ${error.message}\n\n${startUsage()}`);
    return 2;
  }
  if (options.help) {
    stdout(startUsage());
    return 0;
  }

  const log = createLogger(options.logLevel, (line, severity) => (severity === 'error' || severity === 'warn' ? stderr : stdout)(`${line}\n`));
  let server;
  try {
    server = await startServer({
      port: options.port,
      host: options.host,
      ...(options.publicUrl === null ? {} : { publicUrl: options.publicUrl }),
      ...(options.adminToken === null ? {} : { adminToken: options.adminToken }),
      controlOrigins: options.controlOrigins,
      emulator: {
        ...(options.apiKeys === null ? {} : { apiKeys: options.apiKeys }),
        ...(options.fixtures === null ? {} : { fixtures: resolve(options.fixtures) }),
        ...(options.tokenTtlSeconds === null ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
        ...(options.journalLimit === null ? {} : { journalLimit: options.journalLimit }),
        ...(options.policy === null ? {} : { policy: options.policy }),
      },
      // Restored (snapshot, then journal) before anything is served.
      ...(options.stateFile === null
        ? {}
        : { stateFile: { path: resolve(options.stateFile), intervalMs: options.stateIntervalMs, onError: (error: unknown) => log.error(`could not save state: ${String(error)}`) } }),
    });
  } catch (error) {
    if (error instanceof StateRestoreError) {
      stderr(`relay-emulator: ${error.message}\n`);
      return 1;
    }
    // The usual ways a start fails (port taken, address not here, fixtures missing) get one line, not a stack.
    const { code } = error as NodeJS.ErrnoException;
    if (code === undefined || !['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOENT'].includes(code)) throw error;
    stderr(`relay-emulator: cannot start: ${(error as Error).message}\n`);
    return 1;
  }
  const { emulator } = server;
  emulator.observe((exchange) => {
    if (exchange.response.status >= 500) log.error(requestLogLine(exchange, { withOperationId: true }));
    else log.info(requestLogLine(exchange, { withOperationId: log.level === 'debug' }));
  });

  const { stateFile } = server;
  let restored: { transactions: number; savedAt: string | null } | null = null;
  if (server.restored && (server.restored.snapshot || server.restored.replayed > 0)) {
    restored = { transactions: emulator.transactionJournal().length, savedAt: server.restored.snapshot?.savedAt ?? null };
    if (server.restored.discardedBytes > 0) log.warn(`state file journal: cut ${server.restored.discardedBytes} byte(s) of a torn last entry (a crash mid-write; never acknowledged)`);
    const saved = server.restored.snapshot?.feePayer;
    if (saved && saved !== emulator.config.feePayer) log.warn(`state file was saved with fee payer ${saved}; these fixtures have ${emulator.config.feePayer}`);
  }
  if (options.logLevel !== 'silent') stdout(banner({ server, stateFile: stateFile?.path ?? null, restored }));

  const signals = io.signals ?? process;
  let stopping = false;
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const code = await new Promise<number>((done) => {
    onSignal = (signal) => {
      if (stopping) {
        log.warn(`${signal} again: exiting without waiting`);
        done(130);
        return;
      }
      stopping = true;
      log.info(`${signal}: shutting down`);
      (async () => {
        await server.stopAccepting();
        if (stateFile) {
          await stateFile.close();
          log.info(`state saved to ${stateFile.path}`);
        }
        await server.close();
        return 0;
      })().then(done, (error: unknown) => {
        stderr(`relay-emulator: shutdown failed: ${String(error)}\n`);
        done(1);
      });
    };
    signals.on('SIGINT', onSignal);
    signals.on('SIGTERM', onSignal);
  });
  signals.off('SIGINT', onSignal);
  signals.off('SIGTERM', onSignal);
  return code;
}
