/**
 * Damage found in a state file or its journal: the start is refused, and no file is changed. The
 * message names the file, the byte where the damage begins (when there is one) and how to go on.
 */
export class StateDamageError extends Error {
  override readonly name = 'StateDamageError';
  constructor(
    readonly file: string,
    readonly offset: number | null,
    reason: string,
    remedy: string,
  ) {
    super(`${file} is damaged${offset === null ? '' : ` at byte ${offset}`}: ${reason}. Nothing was changed. ${remedy}`);
  }
}
