import type { Keypair } from '@solana/web3.js';
import { isJsonWithKeys, type OwnedFileKind } from '../base/disk/owned-file.ts';
import { boundedReadProblem, readBoundedText } from '../base/disk/read-file.ts';
import { keypairFromSecretKey } from '../base/crypto/keypairs.ts';

// The conformance command's files: the report it writes at --out and the keypair it reads (decision 0010).

/** A usage error of the command: one line, and the usage text after it unless the line says it all. */
export class UsageError extends Error {
  /** False for a file it cannot use (`--owner-keypair`): the one line says it all, without the usage text after it. */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

/** `--out`: a report replaces only a report of its format, an empty file, or nothing (decision 0010). */
export const REPORT_FILES: Record<'json' | 'junit', OwnedFileKind> = {
  json: {
    label: '--out',
    what: 'a JSON conformance report',
    isOurs: (text) => isJsonWithKeys(text, ['target', 'results', 'summary']),
    maxBytes: 64 * 1024 * 1024,
  },
  junit: {
    label: '--out',
    what: 'a JUnit conformance report',
    isOurs: (head) => head.startsWith('<?xml') && head.includes('<testsuites name="relay-conformance"'),
    maxBytes: 64 * 1024 * 1024,
    headBytes: 256,
  },
};

/** A Solana CLI keypair file: a JSON array of the 64 secret-key bytes. */
export async function readKeypair(file: string): Promise<Keypair> {
  let text: string;
  try {
    text = readBoundedText(file, 64 * 1024);
  } catch (error) {
    throw new UsageError(`cannot read --owner-keypair ${file}: it ${boundedReadProblem(error)}`, false);
  }
  let bytes: unknown;
  try {
    bytes = JSON.parse(text);
  } catch {
    throw new UsageError(`--owner-keypair ${file} is not JSON (expected the Solana CLI format: an array of 64 numbers)`, false);
  }
  if (!Array.isArray(bytes) || bytes.length !== 64 || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new UsageError(`--owner-keypair ${file} is not a Solana CLI keypair (an array of 64 numbers 0..255)`, false);
  }
  try {
    return keypairFromSecretKey(Uint8Array.from(bytes as number[]));
  } catch (error) {
    throw new UsageError(`--owner-keypair ${file} is not a valid keypair: ${(error as Error).message}`, false);
  }
}
