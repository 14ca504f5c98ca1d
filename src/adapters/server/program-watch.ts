import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { RelayEmulator } from '../../assembly/emulator.ts';
import type { Logger } from './logger.ts';
import { MAX_ACCOUNT_DATA_BYTES } from '../../domain/ledger/account-state.ts';
import { boundedReadProblem, readBoundedFile } from '../../base/bounded-file.ts';

/** How long a .so must be quiet before it is read: a build writes it in several steps. */
const SETTLE_MS = 200;

/**
 * `--watch`: redeploys a program loaded from a .so when that file changes (after `anchor build` or
 * `cargo build-sbf`), as Surfpool's `--watch` does, and logs each reload. Each program's folder is
 * watched, not the file: a build that replaces the file (a new inode) is seen too. A build that is
 * not a Solana ELF yet, or a deploy the engine refuses, is logged as a warning and the running
 * program stays. Returns a function that stops watching.
 */
export function watchPrograms(emulator: RelayEmulator, log: Logger): () => void {
  const watched = emulator.programs().programs.filter((program) => program.path !== null);
  if (watched.length === 0) return () => undefined;
  if (!emulator.services.ledger.engineName.startsWith('litesvm')) {
    log.warn(`--watch: the ${emulator.services.ledger.engineName} engine loads programs at start only; changed builds are not reloaded (use --engine litesvm)`);
    return () => undefined;
  }
  const timers = new Map<string, NodeJS.Timeout>();
  const watchers: FSWatcher[] = [];
  const byFolder = new Map<string, typeof watched>();
  for (const program of watched) byFolder.set(dirname(program.path!), [...(byFolder.get(dirname(program.path!)) ?? []), program]);
  for (const [folder, programs] of byFolder) {
    const watcher = watch(folder, (_event, name) => {
      for (const program of programs) {
        if (name !== null && name !== basename(program.path!)) continue;
        clearTimeout(timers.get(program.programId));
        timers.set(
          program.programId,
          setTimeout(() => void reload(program.programId, program.path!), SETTLE_MS),
        );
      }
    });
    watcher.on('error', (error) => log.warn(`--watch: ${folder}: ${error.message}`));
    watchers.push(watcher);
  }
  log.info(`watching ${watched.length} program(s) for new builds: ${watched.map((program) => program.path).join(', ')}`);

  let last = new Map(watched.map((program) => [program.programId, program.sha256]));
  async function reload(programId: string, path: string): Promise<void> {
    let elf: Uint8Array;
    try {
      elf = new Uint8Array(readBoundedFile(path, MAX_ACCOUNT_DATA_BYTES));
    } catch (error) {
      log.warn(`--watch: ${path}: ${boundedReadProblem(error)}; ${programId} keeps its code`);
      return;
    }
    try {
      const deployed = await emulator.deployProgram(programId, elf);
      if (last.get(programId) === deployed.sha256) return;
      last = new Map(last).set(programId, deployed.sha256);
      log.info(`reloaded ${programId} from ${path} (${deployed.length} bytes, sha256 ${deployed.sha256.slice(0, 16)}…, slot ${deployed.deploySlot})`);
    } catch (error) {
      log.warn(`--watch: ${path}: ${(error as Error).message} ${programId} keeps its code`);
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
