import { hash } from 'node:crypto';
import { InternalError } from '../../base/errors/internal-error.ts';

/**
 * A set of API keys compared in constant time. Every candidate is compared against every key, and
 * each comparison walks the whole key whatever the candidate holds: no early exit, so neither the
 * position of the first difference nor whether a key matched shows in the time taken. The
 * candidate's own length only picks where its characters are read (modulo, never past its end),
 * and a length difference counts as a difference. (This replaced comparing SHA-256 digests with
 * timingSafeEqual, which had the same property and cost a native hash on every request.)
 */
export class ApiKeys {
  readonly #keys: readonly string[];

  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new InternalError('API_KEYS_EMPTY', {});
    this.#keys = [...keys];
  }

  matches(candidate: string): boolean {
    let found = 0;
    for (const key of this.#keys) found |= Number(sameText(key, candidate));
    return found === 1;
  }
}

/** Whether `candidate` equals `key`, in time that depends on the length of `key` alone. */
function sameText(key: string, candidate: string): boolean {
  const length = candidate.length;
  let difference = key.length ^ length;
  for (let at = 0; at < key.length; at += 1) {
    difference |= key.charCodeAt(at) ^ (length === 0 ? 0 : candidate.charCodeAt(at % length));
  }
  return difference === 0;
}

const keyIds = new Map<string, string>();

/** A short, non-reversible id for a key, safe to put in logs and token subjects. Memoized: keys are few. */
export function apiKeyId(key: string): string {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = digest(key).subarray(0, 8).toString('hex');
    if (keyIds.size >= 1024) keyIds.clear();
    keyIds.set(key, id);
  }
  return id;
}

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer') as Buffer;
}
