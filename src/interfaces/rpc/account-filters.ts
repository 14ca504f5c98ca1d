import { PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import type { LedgerAccount } from '../../domain/ledger/engine.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { decodeTokenAccount } from '../../domain/ledger/token-accounts.ts';
import { invalidParam, invalidParams } from './json-rpc-error.ts';
import { describeType } from './params.ts';

/** An account filter of getProgramAccounts and programSubscribe (agave `RpcFilterType`). */
export type AccountFilter = { kind: 'dataSize'; size: number } | { kind: 'memcmp'; offset: number; bytes: Uint8Array } | { kind: 'tokenAccountState' };

/** The validator's bounds (agave rpc-client-api `filter.rs`). */
const MAX_FILTERS = 4;
const MAX_DATA_SIZE = 128;
const MAX_BASE58_SIZE = 175;
const MAX_BASE64_SIZE = 172;

/** Reads a `filters` array, refusing what the validator refuses. Absent: no filter. */
export function accountFiltersOf(value: unknown): AccountFilter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParams(`invalid type: ${describeType(value)}, expected a sequence of filters`);
  if (value.length > MAX_FILTERS) throw invalidParam(`Too many filters provided; max ${MAX_FILTERS}`);
  return value.map(filterOf);
}

function filterOf(value: unknown): AccountFilter {
  const filter = value as Record<string, unknown>;
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(filter) : [];
  if (keys.length === 1 && keys[0] === 'dataSize') {
    const size = filter.dataSize;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw invalidParams(`invalid type: ${describeType(size)}, expected u64 for \`dataSize\``);
    return { kind: 'dataSize', size };
  }
  if (keys.length === 1 && keys[0] === 'tokenAccountState') return { kind: 'tokenAccountState' };
  if (keys.length === 1 && keys[0] === 'memcmp') return memcmpOf(filter.memcmp);
  throw invalidParams('data did not match any variant of untagged enum RpcFilterType');
}

function memcmpOf(value: unknown): AccountFilter {
  const memcmp = (value ?? {}) as Record<string, unknown>;
  const { offset, bytes, encoding } = memcmp;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
    throw invalidParams(`invalid type: ${describeType(offset)}, expected usize for \`offset\``);
  if (typeof bytes !== 'string') throw invalidParams(`invalid type: ${describeType(bytes)}, expected a string for \`bytes\``);
  const form = encoding ?? 'base58';
  if (form !== 'base58' && form !== 'base64') throw invalidParams(`unknown variant \`${String(form)}\`, expected \`base58\` or \`base64\``);
  if (bytes.length > (form === 'base58' ? MAX_BASE58_SIZE : MAX_BASE64_SIZE))
    throw invalidParam(`encoded binary (${form === 'base58' ? 'base 58' : 'base 64'}) data should be less than ${MAX_DATA_SIZE + 1} bytes`);
  const decoded = form === 'base58' ? decodeBase58(bytes) : new Uint8Array(Buffer.from(bytes, 'base64'));
  if (decoded === null) throw invalidParam(`${form} decode error`);
  if (decoded.length > MAX_DATA_SIZE) throw invalidParam(`encoded binary data should be less than ${MAX_DATA_SIZE + 1} bytes`);
  return { kind: 'memcmp', offset, bytes: decoded };
}

/** True when `account` passes every filter. */
export function matchesFilters(account: LedgerAccount, filters: readonly AccountFilter[]): boolean {
  for (const filter of filters) {
    if (filter.kind === 'dataSize') {
      if (account.data.length !== filter.size) return false;
    } else if (filter.kind === 'tokenAccountState') {
      if (decodeTokenAccount(account) === null) return false;
    } else {
      const { offset, bytes } = filter;
      if (offset + bytes.length > account.data.length) return false;
      for (let index = 0; index < bytes.length; index += 1) if (account.data[offset + index] !== bytes[index]) return false;
    }
  }
  return true;
}

/**
 * Every account on the ledger that `keep` accepts, by address, in address order. It reads each
 * address the ledger knows (genesis and every one written since: `Ledger.knownAddresses`); the
 * runtime's own accounts (builtins, the bundled programs, sysvars) are not among them.
 */
export async function scanAccounts(ledger: Ledger, keep: (account: LedgerAccount) => boolean): Promise<{ pubkey: string; account: LedgerAccount }[]> {
  const found: { pubkey: string; account: LedgerAccount }[] = [];
  const known = new Set(ledger.knownAddresses());
  // An upgradeable program's data account is an account too (the runtime's own programs' among them).
  const queue = [...known];
  for (let at = 0; at < queue.length; at += 1) {
    const pubkey = queue[at]!;
    const account = await ledger.getAccount(new PublicKey(pubkey));
    if (!account) continue;
    if (keep(account)) found.push({ pubkey, account });
    const programData = programDataOf(account);
    if (programData !== null && !known.has(programData)) {
      known.add(programData);
      queue.push(programData);
    }
  }
  return found.sort((a, b) => (a.pubkey < b.pubkey ? -1 : a.pubkey > b.pubkey ? 1 : 0));
}

const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');

/** The program-data address an upgradeable program's account names, or null. */
function programDataOf(account: LedgerAccount): string | null {
  const { data } = account;
  if (!account.owner.equals(UPGRADEABLE_LOADER) || data.length < 36 || data[0] !== 2 || data[1] !== 0 || data[2] !== 0 || data[3] !== 0) return null;
  return new PublicKey(data.subarray(4, 36)).toBase58();
}
