import { VersionedTransaction } from '@solana/web3.js';
import { decodeBase58 } from '../../../base/crypto/base58.ts';
import { encodeTransaction } from '../../rpc/transaction-json.ts';
import { isObject } from './json-values.ts';

/** What the web UI reads out of a transaction's bytes: its jsonParsed form and the addresses it names. */
export interface DecodedFacts {
  /** `{signatures, message}` as getTransaction renders it in jsonParsed (instructions decoded). */
  parsed: Record<string, unknown>;
  /** Every account key, and every address an instruction names (owners, wallets, mints...). */
  addresses: Set<string>;
  /** Mints a decoded instruction names. */
  mints: Set<string>;
}

/** Decodes signed wire bytes; null when they are not one transaction. */
export function decodeWire(bytes: Uint8Array): DecodedFacts | null {
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(bytes);
  } catch {
    return null;
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = encodeTransaction(tx, bytes, 'jsonParsed') as Record<string, unknown>;
  } catch {
    return null; // An index out of range: the bytes deserialize but do not make a transaction.
  }
  const addresses = new Set(tx.message.staticAccountKeys.map((key) => key.toBase58()));
  const mints = new Set<string>();
  collectAddresses(parsed.message, addresses, mints, 0);
  return { parsed, addresses, mints };
}

/**
 * The transaction a relay request carried, from its body as the request journal holds it: the
 * current interface's `signedTransaction` (any casing), the legacy `tx`, or a JSON-RPC
 * sendTransaction's first parameter in its `encoding`. Null when there is none or it does not decode.
 */
export function decodeRequestTransaction(body: unknown): DecodedFacts | null {
  const found = carriedTransaction(body);
  if (found === null) return null;
  const bytes = found.encoding === 'base58' ? decodeBase58(found.text) : base64Bytes(found.text);
  return bytes === null ? null : decodeWire(bytes);
}

function carriedTransaction(body: unknown): { text: string; encoding: 'base58' | 'base64' } | null {
  if (!isObject(body)) return null;
  if (body.jsonrpc !== undefined && Array.isArray(body.params)) {
    const [text, config] = body.params;
    const encoding = isObject(config) && config.encoding === 'base64' ? 'base64' : 'base58';
    return typeof text === 'string' ? { text, encoding } : null;
  }
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string' && ['signedtransaction', 'transaction', 'tx'].includes(name.toLowerCase())) return { text: value, encoding: 'base64' };
  }
  return null;
}

function base64Bytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Walks decoded instructions for addresses (bounded depth: the shape is the RPC's, a few levels). */
function collectAddresses(node: unknown, addresses: Set<string>, mints: Set<string>, depth: number): void {
  if (depth > 8) return;
  if (Array.isArray(node)) {
    for (const item of node) collectAddresses(item, addresses, mints, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string' && ADDRESS.test(value) && key !== 'recentBlockhash' && key !== 'data') {
      addresses.add(value);
      if (key === 'mint') mints.add(value);
    } else if (typeof value === 'object') collectAddresses(value, addresses, mints, depth + 1);
  }
}
