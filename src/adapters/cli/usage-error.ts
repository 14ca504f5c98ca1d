/** A command line that cannot run as given: said in one line, with the command's usage, and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
