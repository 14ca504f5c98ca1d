/**
 * A part of the emulator that holds state: it can be snapshotted (state file), restored (start
 * from a state file) and reset (back to the fixtures).
 */
export interface StatefulPart {
  /** Unique key of this part in a snapshot. */
  name: string;
  snapshot(): unknown | Promise<unknown>;
  restore(data: unknown): void | Promise<void>;
  reset(): void | Promise<void>;
}

/** Every stateful part, in registration order (restore and reset run in that order). */
export class StateRegistry {
  readonly #parts = new Map<string, StatefulPart>();

  register(part: StatefulPart): void {
    if (this.#parts.has(part.name)) throw new Error(`state part ${part.name} is registered twice`);
    this.#parts.set(part.name, part);
  }

  parts(): StatefulPart[] {
    return [...this.#parts.values()];
  }
}
