import { isInternalError, InternalError } from '../../../base/errors/internal-error.ts';
import { isJsonWithKeys, OwnedFile, type OwnedFileKind } from '../../../base/disk/owned-file.ts';
import type { ReadyFacts } from './ready.ts';

/** The ready facts' members that tell an earlier run's ready file from any other JSON. */
const READY_KEYS = ['origin', 'baseUrl', 'rpcUrl', 'apiKey', 'feePayer', 'pid'] as const;

const READY_FILE: OwnedFileKind = {
  label: '--ready-file',
  what: 'a ready file',
  isOurs: (text) => isJsonWithKeys(text, READY_KEYS),
  // A ready file is a few hundred bytes; anything past this is not one.
  maxBytes: 64 * 1024,
};

/**
 * `--ready-file PATH`: {@link ReadyFacts} as JSON, written once the emulator answers, removed on
 * shutdown: an {@link OwnedFile} (decision 0010). Claimed at start, before anything listens: nothing
 * there, an empty file (`mktemp`'s) or a ready file an earlier run left (a `kill -9`; removed at
 * once, so it never announces this run) may be taken; anything else is refused in one line,
 * untouched, and nothing starts (issue 45, item 1).
 */
export class ReadyFile {
  private constructor(readonly file: OwnedFile) {}

  get path(): string {
    return this.file.path;
  }

  /** Takes PATH for this run, or throws READY_FILE_REFUSED naming what is there. */
  static claim(path: string): ReadyFile {
    try {
      return new ReadyFile(OwnedFile.claim(path, READY_FILE, { clearStale: true }));
    } catch (error) {
      if (!isInternalError(error, 'PATH_REFUSED')) throw error;
      throw new InternalError('READY_FILE_REFUSED', { path, problem: error.context.problem }, { cause: error });
    }
  }

  /** Writes the facts: a temporary file renamed onto PATH. Throws when PATH now holds what is not ours, or the folder takes no file. */
  write(facts: ReadyFacts): void {
    this.file.write(`${JSON.stringify(facts, null, 2)}\n`);
  }

  /** Removes PATH if it is still the file {@link write} put there; anything else is left as it is. */
  remove(): void {
    this.file.remove();
  }
}
