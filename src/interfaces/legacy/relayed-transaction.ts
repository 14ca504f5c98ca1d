import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import type { PreparedRelay } from '../../domain/relay/accept-pipeline.ts';
import { PROGRAMS, TOKEN_INSTRUCTION } from '../../domain/relay/programs.ts';
import type { LegacyApp } from './legacy-apps.ts';

// What the legacy relay reads off a transaction it relays: the facts its record reports.

/** The explorer link of a signature: the app's template with `{path}` → `tx/<signature>`, as Kinetic's server fills it. */
export function explorerUrl(app: LegacyApp, signature: string): string {
  return app.explorer.replace('{path}', `tx/${signature}`);
}

/** Distinct destinations of the token transfers in a transaction (several make a batch). */
export function transferDestinations(tx: VersionedTransaction): number {
  const keys = tx.message.staticAccountKeys;
  const destinations = new Set<string>();
  for (const ix of tx.message.compiledInstructions) {
    if (!keys[ix.programIdIndex]?.equals(PROGRAMS.token)) continue;
    const position = ix.data[0] === TOKEN_INSTRUCTION.Transfer ? 1 : ix.data[0] === TOKEN_INSTRUCTION.TransferChecked ? 2 : -1;
    const destination = position < 0 ? undefined : keys[ix.accountKeyIndexes[position] ?? -1];
    if (destination) destinations.add(destination.toBase58());
  }
  return destinations.size;
}

/** The first signer after the fee payer: the owner who signed, as the legacy service reported `source`. */
export function firstSigner(tx: VersionedTransaction): string | null {
  return tx.message.header.numRequiredSignatures > 1 ? (tx.message.staticAccountKeys[1] ?? PublicKey.default).toBase58() : null;
}

/** Every mint a relayed transaction touches: created accounts and transfers. */
export function mintsOf(prepared: PreparedRelay): string[] {
  const mints = new Set<string>();
  for (const created of prepared.verdict.created) mints.add(created.mint);
  for (const transfer of prepared.verdict.transfers) if (transfer.mint) mints.add(transfer.mint);
  return [...mints];
}
