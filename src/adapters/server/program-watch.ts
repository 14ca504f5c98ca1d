import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { RelayEmulator } from '../../assembly/emulator.ts';
import type { Logger } from './logger.ts';
import { MAX_ACCOUNT_DATA_BYTES } from '../../domain/ledger/account-state.ts';
import { boundedReadProblem, readBoundedFile } from '../../base/disk/read-file.ts';
import { readProgramIdl } from '../../domain/fixtures/program-idl.ts';

/** How long a file must be quiet before it is read: a build writes it in several steps. */
const SETTLE_MS = 200;

/** A file `--watch` follows, and what it does when the file has settled after a change. */
interface Watched {
  path: string;
  key: string;
  changed(): Promise<void>;
}

/**
 * `--watch`: redeploys a program loaded from a .so when that file changes (after `anchor build` or
 * `cargo build-sbf`), as Surfpool's `--watch` does, and takes its IDL again when the IDL file
 * changes (`anchor build` writes `target/idl/<name>.json` too); it logs each reload. Each file's
 * folder is watched, not the file: a build that replaces the file (a new inode) is seen too. A
 * build that is not a Solana ELF yet, or a deploy the engine refuses, or an IDL that does not
 * parse, or a file that is not a regular one (a FIFO put in its place would block the server as it
 * opened it), is logged as a warning and the running program (or IDL) stays. Returns a function that
 * stops watching.
 */
export function watchPrograms(emulator: RelayEmulator, log: Logger): () => void {
  const fromFiles = emulator.programs().programs.filter((program) => program.path !== null);
  const idls = emulator.services.programs.idls.files();
  if (fromFiles.length + idls.length === 0) return () => undefined;
  const redeploys = emulator.services.ledger.engineName.startsWith('litesvm');
  if (!redeploys && fromFiles.length > 0) {
    log.warn(`--watch: the ${emulator.services.ledger.engineName} engine loads programs at start only; changed builds are not reloaded (use --engine litesvm)`);
  }
  const watched: Watched[] = [
    ...(redeploys
      ? fromFiles.map((program) => ({ path: program.path!, key: `so:${program.programId}`, changed: () => reload(program.programId, program.path!) }))
      : []),
    ...idls.map(({ programId, path }) => ({ path, key: `idl:${programId}`, changed: () => reloadIdl(programId, path) })),
  ];
  if (watched.length === 0) return () => undefined;

  const timers = new Map<string, NodeJS.Timeout>();
  const watchers: FSWatcher[] = [];
  const byFolder = new Map<string, Watched[]>();
  for (const file of watched) byFolder.set(dirname(file.path), [...(byFolder.get(dirname(file.path)) ?? []), file]);
  for (const [folder, files] of byFolder) {
    const watcher = watch(folder, (_event, name) => {
      for (const file of files) {
        if (name !== null && name !== basename(file.path)) continue;
        clearTimeout(timers.get(file.key));
        timers.set(
          file.key,
          setTimeout(() => void file.changed(), SETTLE_MS),
        );
      }
    });
    watcher.on('error', (error) => log.warn(`--watch: ${folder}: ${error.message}`));
    watchers.push(watcher);
  }
  const builds = watched.filter((file) => file.key.startsWith('so:'));
  if (builds.length > 0) log.info(`watching ${builds.length} program(s) for new builds: ${builds.map((file) => file.path).join(', ')}`);
  if (idls.length > 0) log.info(`watching ${idls.length} IDL(s): ${idls.map((idl) => idl.path).join(', ')}`);

  let last = new Map(fromFiles.map((program) => [program.programId, program.sha256]));
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

  let lastIdl = new Map(idls.map(({ programId }) => [programId, JSON.stringify(emulator.services.programs.idls.get(programId)?.source)]));
  async function reloadIdl(programId: string, path: string): Promise<void> {
    try {
      const idl = readProgramIdl(path, `program ${programId}`);
      const text = JSON.stringify(idl.source);
      if (lastIdl.get(programId) === text) return;
      lastIdl = new Map(lastIdl).set(programId, text);
      const warning = emulator.services.programs.replaceIdl(programId, idl);
      log.info(`reloaded the IDL of ${programId} from ${path} (${idl.name})`);
      if (warning) log.warn(warning);
    } catch (error) {
      log.warn(`--watch: ${(error as Error).message}; ${programId} keeps its IDL`);
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
