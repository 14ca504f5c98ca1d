/**
 * What the `solana` shim refuses or reports as the Solana CLI does: the CLI's own words (`Error:
 * AccountNotFound: pubkey=…`, `Unable to parse input amount as float, provided: …`), printed after
 * `Error: ` with exit code 1. Any other error is a fault of the shim, and keeps its stack.
 */
export class SolanaCliError extends Error {
  override readonly name = 'SolanaCliError';
}
