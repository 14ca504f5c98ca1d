import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isPlainName, OwnedFolder } from '../../../base/disk/owned-folder.ts';
import { lookAt } from '../../../base/disk/look.ts';
import { keypairFromSecretKey, keypairFromSeed } from '../../../base/crypto/keypairs.ts';
import { InternalError } from '../../../base/errors/internal-error.ts';
import type { ValidatorKeyName } from '../../../domain/fixtures/validator-genesis.ts';
import { StateLock } from '../../server/state-lock.ts';

/** The state file test-validator keeps in its ledger folder (with its journal segments and lock beside it). */
export const LEDGER_STATE_FILE = 'relay-emulator.state.json';

/** The names of every file the emulator made in the ledger folder, so that `--reset` deletes those and nothing else. */
export const LEDGER_RECORD = 'relay-emulator.ledger.json';

/** The state file's own family: itself, its journal segments and the temporaries a crash left (never the lock, nor the copies `--accept-state-loss` kept). */
const STATE_FAMILY = new RegExp(`^${LEDGER_STATE_FILE.replace(/\./g, '\\.')}(\\.journal\\.\\d{8})?(\\.\\d+\\.tmp)?$`);

const RECORD_GENERATOR = 'relay-emulator test-validator';

/** Where solana-test-validator keeps its keys in the ledger (test-validator/src/lib.rs, solana-test-validator.rs). */
const VALIDATOR_KEY_FILES: Record<ValidatorKeyName, string> = {
  identity: 'validator-keypair.json',
  vote: 'vote-account-keypair.json',
  stake: 'stake-account-keypair.json',
  faucet: 'faucet-keypair.json',
};

/** A keypair file's secret key (64 numbers), or PATH_REFUSED naming it. */
function secretKeyOf(bytes: Buffer, path: string): Uint8Array {
  try {
    const numbers: unknown = JSON.parse(bytes.toString('utf8'));
    if (Array.isArray(numbers) && numbers.length === 64 && numbers.every((value) => Number.isInteger(value) && value >= 0 && value <= 255)) {
      const secret = Uint8Array.from(numbers as number[]);
      keypairFromSecretKey(secret);
      return secret;
    }
  } catch {
    // Said below.
  }
  throw new InternalError('PATH_REFUSED', { label: '--ledger', path, problem: 'is not a keypair file (64 numbers, as solana-keygen writes one)' });
}

/** The largest record: a name list. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * `--ledger DIR` (test-validator, the surfpool shim): a folder that may be the user's, where the
 * emulator keeps files of its own by name (decision 0010). The state file's lock is taken before
 * anything in it is read or deleted (issue 53, item 1: `--reset` used to delete a live emulator's
 * files, its lock among them, and then take the lock): a second start on a folder in use refuses,
 * `--reset` included. `--reset` deletes only what the emulator made: the state file and its
 * journal, and the files it recorded making (validator logs, keypairs); a `*.backup/`, a `*.old`, a
 * log the user wrote stay (item 2).
 */
export class LedgerFolder {
  private constructor(
    readonly folder: OwnedFolder,
    readonly lock: StateLock,
  ) {}

  get path(): string {
    return this.folder.path;
  }

  /** Takes the folder (made when missing) and its lock; `reset` then deletes what the emulator made in it. Throws PATH_REFUSED or the lock's "in use". */
  static async open(path: string, { reset }: { reset: boolean }): Promise<LedgerFolder> {
    const folder = OwnedFolder.claim(path, { label: '--ledger', what: 'a ledger', ownership: 'shared' });
    const lock = await StateLock.acquire(join(folder.path, LEDGER_STATE_FILE));
    const ledger = new LedgerFolder(folder, lock);
    if (reset) ledger.#reset();
    return ledger;
  }

  /** The names the record holds: files the emulator made here. */
  recorded(): Set<string> {
    try {
      const bytes = this.folder.read(LEDGER_RECORD, MAX_RECORD_BYTES);
      if (bytes === null) return new Set();
      const { files } = JSON.parse(bytes.toString('utf8')) as { files?: unknown };
      return new Set(Array.isArray(files) ? files.filter((name): name is string => typeof name === 'string' && isPlainName(name)) : []);
    } catch {
      return new Set();
    }
  }

  /** Writes entry `name` (a file the emulator makes, such as a keypair), recorded first so that `--reset` finds it. */
  writeFile(name: string, content: string): string {
    this.#record(name);
    return this.folder.write(name, content, { replaces: () => this.recorded().has(name) });
  }

  /**
   * Opens a new log as Agave's test-validator does: `validator-<ms>.log`, with `validator.log` a
   * link to it (replacing only a link, or a file the emulator recorded). Returns a writer of lines,
   * and its close; the file is opened exclusively (never through a link) and appended to.
   */
  openLog(now = Date.now()): { path: string; write: (line: string) => void; close: () => void } {
    const name = `validator-${now}.log`;
    this.#record(name);
    const path = this.folder.entry(name);
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | constants.O_NOFOLLOW, 0o644);
    const link = this.folder.entry('validator.log');
    const found = lookAt(link);
    const ours = found.kind === 'link' || (found.kind === 'file' && this.recorded().has('validator.log'));
    if (found.kind === 'nothing' || ours) {
      this.#record('validator.log');
      this.folder.remove('validator.log', { links: true });
      try {
        symlinkSync(name, link);
      } catch {
        // Another start made it meanwhile: the log is written all the same.
      }
    }
    let open = true;
    return {
      path,
      write: (line) => {
        if (open) writeSync(fd, line);
      },
      close: () => {
        if (!open) return;
        open = false;
        closeSync(fd);
      },
    };
  }

  /**
   * The validator's keys, as solana-test-validator keeps them in its ledger: `validator-keypair.json`,
   * `vote-account-keypair.json`, `stake-account-keypair.json` and `faucet-keypair.json` (64 numbers
   * each, as solana-keygen writes). Each is read when there (a ledger keeps its identity across
   * restarts), else made at random and written, recorded as the emulator's.
   */
  validatorKeys(): Record<ValidatorKeyName, Uint8Array> {
    const keys = {} as Record<ValidatorKeyName, Uint8Array>;
    for (const [name, file] of Object.entries(VALIDATOR_KEY_FILES) as [ValidatorKeyName, string][]) {
      const found = this.folder.read(file, 64 * 1024);
      if (found !== null) {
        keys[name] = secretKeyOf(found, this.folder.entry(file));
        continue;
      }
      const secret = keypairFromSeed(randomBytes(32)).secretKey;
      this.writeFile(file, `${JSON.stringify([...secret])}\n`);
      keys[name] = secret;
    }
    return keys;
  }

  /** Lets the next start take the folder (when the state file did not take the lock over). */
  release(): Promise<void> {
    return this.lock.release();
  }

  #reset(): void {
    const recorded = this.recorded();
    for (const name of this.folder.names()) {
      if (STATE_FAMILY.test(name) || (recorded.has(name) && name !== LEDGER_RECORD)) this.folder.remove(name, { links: name === 'validator.log' });
    }
    if (this.#recordIsOurs()) this.folder.remove(LEDGER_RECORD);
  }

  #recordIsOurs(): boolean {
    try {
      const bytes = this.folder.read(LEDGER_RECORD, MAX_RECORD_BYTES);
      return bytes !== null && (JSON.parse(bytes.toString('utf8')) as { generator?: unknown }).generator === RECORD_GENERATOR;
    } catch {
      return false;
    }
  }

  #record(name: string): void {
    const recorded = this.recorded();
    if (recorded.has(name)) return;
    recorded.add(name);
    this.folder.write(LEDGER_RECORD, `${JSON.stringify({ generator: RECORD_GENERATOR, files: [...recorded].sort() }, null, 2)}\n`, {
      replaces: () => this.#recordIsOurs(),
    });
  }
}
