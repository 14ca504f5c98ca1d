import { createRequire } from 'node:module';
import { decodeBase58, encodeBase58 } from '../../base/crypto/base58.ts';
import { createEd25519Signer, type Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { InternalError } from '../../base/errors/internal-error.ts';
import { KoraError } from './kora-error.ts';
import { isAddress } from './kora-instructions.ts';
import { boundedReadProblem, MAX_TOML_BYTES, readBoundedText } from '../../base/disk/read-file.ts';

type Strategy = 'round_robin' | 'random' | 'weighted';

/** One of Kora's signers: its name in signers.toml, its weight, and its key. */
export interface KoraSigner {
  name: string;
  weight: number;
  signer: Ed25519Signer;
  address: string;
}

/**
 * Kora's signer pool (crates/lib/src/signer/pool.rs, config.rs): the signers a `signers.toml` names,
 * picked per request by its strategy, or by `signer_key`. Only `memory` signers can be honoured
 * offline; Turnkey, Privy and Vault are refused at start by name. `random` and `weighted` pick from a
 * fixed cycle instead of a random draw (x-emulator-choice: runs stay deterministic; over a full cycle
 * each signer is picked in proportion to its weight, as Kora's draw is on average).
 */
export class KoraSignerPool {
  readonly #cycle: KoraSigner[];
  #next = 0;

  constructor(
    readonly signers: readonly KoraSigner[],
    strategy: Strategy = 'round_robin',
  ) {
    this.#cycle = strategy === 'weighted' ? signers.flatMap((signer) => Array<KoraSigner>(signer.weight).fill(signer)) : [...signers];
  }

  /** SignerPool::get_next_signer. */
  next(): KoraSigner {
    const signer = this.#cycle[this.#next % this.#cycle.length]!;
    this.#next += 1;
    return signer;
  }

  /** get_request_signer_with_signer_key: the named signer, else the next one. */
  pick(signerKey: string | null): KoraSigner {
    if (signerKey === null) return this.next();
    if (!isAddress(signerKey)) throw new KoraError('ValidationError', `Invalid signer signer key pubkey: ${signerKey}`);
    const found = this.signers.find((signer) => signer.address === signerKey);
    if (!found) throw new KoraError('ValidationError', `Signer with pubkey ${signerKey} not found in pool`);
    return found;
  }

  addresses(): string[] {
    return this.signers.map((signer) => signer.address);
  }
}

/** One signer, as the pool the emulator's own fee payer makes when no signers.toml is given. */
export function singleSignerPool(signer: Ed25519Signer): KoraSignerPool {
  return new KoraSignerPool([{ name: 'fee_payer', weight: 1, signer, address: encodeBase58(signer.publicKey) }]);
}

/**
 * Reads a `signers.toml` as Kora 2.0.5 does (SignerPoolConfig::load_config): `[signer_pool] strategy`
 * (default round_robin) and `[[signers]]` with a unique `name`, a `type` and, for `memory`,
 * `private_key_env`: the environment variable holding the key as a keypair file's path, a
 * `[1, 2, …]` byte list or base58 (KeypairUtil::from_private_key_string, in that order).
 */
export function readKoraSigners(path: string, env: NodeJS.ProcessEnv = process.env): KoraSignerPool {
  const refuse = (problem: string) => new InternalError('KORA_CONFIG_INVALID', { problem: `${path}: ${problem}` });
  let text: string;
  try {
    text = readBoundedText(path, MAX_TOML_BYTES);
  } catch (error) {
    throw refuse(boundedReadProblem(error));
  }
  let document: Record<string, unknown>;
  try {
    // Required here: only an emulator given a signers.toml loads the TOML reader.
    const { parse } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml');
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw refuse(`Failed to parse signers config TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const pool = (document.signer_pool ?? {}) as Record<string, unknown>;
  const strategy = (pool.strategy ?? 'round_robin') as Strategy;
  if (!['round_robin', 'random', 'weighted'].includes(strategy))
    throw refuse(`signer_pool.strategy "${String(strategy)}" is not one of round_robin, random, weighted`);
  const entries = Array.isArray(document.signers) ? (document.signers as Record<string, unknown>[]) : [];
  if (entries.length === 0) throw refuse('At least one signer must be configured');
  const signers = entries.map((entry, index): KoraSigner => {
    const name = typeof entry.name === 'string' ? entry.name : `signers[${index}]`;
    if (entry.type !== 'memory') throw refuse(`signer '${name}' of type "${String(entry.type)}" cannot be honoured offline: only type = "memory" is`);
    if (typeof entry.private_key_env !== 'string') throw refuse(`signer '${name}' needs private_key_env`);
    const weight = entry.weight === undefined ? 1 : Number(entry.weight);
    if (strategy === 'weighted' && weight === 0) throw refuse(`Signer '${name}' has weight of 0 in weighted strategy`);
    const text = env[entry.private_key_env];
    if (text === undefined) throw refuse(`Environment variable '${entry.private_key_env}' required for signer '${name}' is not set`);
    const secret = secretKeyFrom(text);
    if (typeof secret === 'string') throw refuse(`signer '${name}': ${secret}`);
    const signer = createEd25519Signer(secret);
    return { name, weight, signer, address: encodeBase58(signer.publicKey) };
  });
  const names = new Set<string>();
  for (const { name } of signers) {
    if (names.has(name)) throw refuse(`Duplicate signer name: ${name}`);
    names.add(name);
  }
  return new KoraSignerPool(signers, strategy);
}

/** KeypairUtil::from_private_key_string: a 64-byte secret key, or why not (in Kora's words). */
function secretKeyFrom(text: string): Uint8Array | string {
  let body = text.trim();
  try {
    // A keypair file is some 250 bytes; a larger file is no key, and is not read past 64 KiB.
    body = readBoundedText(text, 64 * 1024).trim();
  } catch {
    // Not a file (or no keypair file): the text itself.
  }
  let bytes: Uint8Array | null;
  if (body.startsWith('[') && body.endsWith(']')) {
    const items = body
      .slice(1, -1)
      .split(',')
      .map((item) => Number(item.trim()));
    if (items.some((item) => !Number.isInteger(item) || item < 0 || item > 255)) return 'Invalid U8Array';
    bytes = Uint8Array.from(items);
  } else {
    bytes = decodeBase58(body);
    if (bytes === null) return 'Invalid base58 string';
  }
  if (bytes.length !== 64) return `Invalid private key length: expected 64 bytes, got ${bytes.length}`;
  return bytes;
}
