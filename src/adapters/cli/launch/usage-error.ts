/** A command line that cannot run as given: said in one line, with the command's usage, and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `value` when it is one of `allowed`; else a UsageError naming them ("--timing must be instant or validator, not …"). */
export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const named = allowed.length === 2 ? `${allowed[0]} or ${allowed[1]}` : `one of ${allowed.join(', ')}`;
  throw new UsageError(`--${flag} must be ${named}, not "${value}"`);
}
