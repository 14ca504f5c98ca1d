import { resolve } from 'node:path';
import { OwnedFolder, type OwnedFolderKind } from '../../../base/disk/owned-folder.ts';
import { isInternalError } from '../../../base/errors/internal-error.ts';

const LOG_FOLDER: OwnedFolderKind = { label: '--log-path', what: "Surfpool's log folder", ownership: 'shared' };
/** The most a log keeps: its first lines (the start, the warnings, the ready facts) matter; a long run's requests do not. */
const MAX_LOG_LINES = 2_000;

/**
 * Surfpool's log file, `<--log-path, default .surfpool/logs>/simnet_<%Y-%m-%d--%H-%M-%S>.log`, lines
 * `[<time> <LEVEL> surfpool] <message>` (crates/cli/src/cli/mod.rs, `setup_logger`). Written whatever
 * `--log-level`, unlike Surfpool's: Anchor 1.x hides surfpool's output and says only "Check
 * .surfpool/logs/ directory for errors", so the reason a start failed must be there. Written through
 * the disk module into a folder that is the user's: only the file this run made is ever replaced.
 */
export class SurfpoolLog {
  readonly #lines: string[] = [];
  readonly #name: string;
  readonly #path: string;
  #folder: OwnedFolder | null = null;
  #written = false;
  /** Why the log cannot be written (told once), or null. */
  problem: string | null = null;

  constructor(logPath: string, now: Date = new Date()) {
    this.#path = resolve(logPath);
    this.#name = `simnet_${stamp(now)}.log`;
  }

  get file(): string {
    return `${this.#path}/${this.#name}`;
  }

  /** Adds a line and writes the file again. */
  add(level: 'INFO' | 'WARN' | 'ERROR', message: string): void {
    if (this.#lines.length >= MAX_LOG_LINES) return;
    for (const line of message.replace(/\n+$/, '').split('\n')) this.#lines.push(`[${stamp(new Date())} ${level} surfpool] ${line}`);
    this.#flush();
  }

  #flush(): void {
    if (this.problem !== null) return;
    try {
      this.#folder ??= OwnedFolder.claim(this.#path, LOG_FOLDER);
      // Ours to replace once this run wrote it; anything else of that name is left.
      this.#folder.write(this.#name, `${this.#lines.join('\n')}\n`, { replaces: () => this.#written });
      this.#written = true;
    } catch (error) {
      if (!isInternalError(error, 'PATH_REFUSED')) throw error;
      this.problem = error.message;
    }
  }
}

/** Surfpool's file-name and line time: `%Y-%m-%d--%H-%M-%S`, local time. */
function stamp(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return `${day}--${two(date.getHours())}-${two(date.getMinutes())}-${two(date.getSeconds())}`;
}
