import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { decodeState, encodeState } from '../controls/state-codec.ts';
import type { EmulatorSnapshot } from '../controls/control-types.ts';
import type { RelayEmulator } from '../emulator.ts';

export const DEFAULT_STATE_INTERVAL_MS = 5_000;

export interface StateFileOptions {
  path: string;
  emulator: RelayEmulator;
  /** How often to save while requests keep coming, in ms; 0 saves on shutdown only. Default 5000. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The emulator's state on disk: loaded on start, saved periodically (only after requests came in)
 * and on shutdown. Saves are atomic (write a sibling file, then rename) and never overlap.
 */
export class StateFile {
  readonly path: string;
  readonly #emulator: RelayEmulator;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | null = null;
  #dirty = false;
  #unsubscribe: (() => void) | null = null;
  #saving: Promise<void> = Promise.resolve();

  constructor(options: StateFileOptions) {
    this.path = options.path;
    this.#emulator = options.emulator;
    this.#intervalMs = options.intervalMs ?? DEFAULT_STATE_INTERVAL_MS;
    this.#onError = options.onError ?? ((error) => console.error('relay-emulator: could not save state', error));
  }

  /** Restores the file's state into the emulator. Resolves false when there is no file yet. */
  async load(): Promise<{ loaded: false } | { loaded: true; snapshot: EmulatorSnapshot }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { loaded: false };
      throw error;
    }
    const snapshot = decodeState(text) as EmulatorSnapshot;
    await this.#emulator.restore(snapshot);
    return { loaded: true, snapshot };
  }

  /** Saves now (after any save in progress). */
  save(): Promise<void> {
    const run = this.#saving.then(async () => {
      this.#dirty = false;
      const text = encodeState(await this.#emulator.snapshot());
      await mkdir(dirname(this.path), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, this.path);
    });
    this.#saving = run.catch(() => undefined);
    return run;
  }

  /** Starts saving every intervalMs when something was requested since the last save. */
  start(): void {
    this.#unsubscribe = this.#emulator.observe(() => {
      this.#dirty = true;
    });
    if (this.#intervalMs > 0) {
      this.#timer = setInterval(() => {
        if (this.#dirty) this.save().catch(this.#onError);
      }, this.#intervalMs);
      this.#timer.unref();
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
