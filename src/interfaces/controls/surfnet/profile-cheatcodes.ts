import { randomUUID } from 'node:crypto';
import { VersionedTransaction } from '@solana/web3.js';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { decodeBase64AsRust } from '../../../base/crypto/base64.ts';
import type { LedgerAccount } from '../../../domain/ledger/engine.ts';
import type { Ledger } from '../../../domain/ledger/ledger.ts';
import { failedBeforeExecution } from '../../../domain/ledger/transaction-error.ts';
import { transactionErrorText } from '../../rpc/transaction-error-text.ts';
import { accountJson } from '../../rpc/account-json.ts';
import { withContext } from '../../rpc/context.ts';
import { JsonRpcError, RPC_ERROR, invalidParams, paramsError } from '../../rpc/json-rpc-error.ts';
import { describeType, positional } from '../../rpc/params.ts';
import type { Cheatcode, CheatcodeParts, CheatcodeState, KeyedProfile } from './cheatcode-state.ts';

type Encoding = 'base64' | 'base58' | 'base64+zstd' | 'jsonParsed';
const ENCODINGS: readonly Encoding[] = ['base64', 'base58', 'base64+zstd', 'jsonParsed'];
/** Profiles kept, the oldest forgotten first (Surfpool's --max-profiles default). */
const MAX_PROFILES = 200;
/** A tag is a name, not a store. */
const MAX_TAG_LENGTH = 256;

/**
 * Surfpool's transaction profiles (`UiKeyedProfileResult`): a transaction simulated against the
 * ledger as it stands, nothing committed, with its compute units, logs, error and each account's
 * change (readonly, or writable with `create`, `update` [before, after], `delete` or `unchanged`),
 * kept by a UUID and by tag. Beside Surfpool's fields, `transactionProfile.sponsorCost` is what
 * its fee payer would pay, as the sponsor-cost report counts it: the fee, the rest of its outflow
 * (rent fronted less refunds) and the total (x-emulator-choice; Surfpool reports compute units only;
 * on the bankrun engine, which reports no states after a simulation, the last two are null).
 * Instruction-level profiles (Surfpool replays each instruction prefix) are not made: the field is
 * left out, as Surfpool leaves it out for `depth: "transaction"`.
 */
export function profileCheatcodes(parts: CheatcodeParts, state: CheatcodeState): Record<string, Cheatcode> {
  /** Kept by key and tag; past MAX_PROFILES the oldest goes, from its tag too (a tag with none left goes). */
  const keep = (profile: KeyedProfile, tag: string | null) => {
    state.profiles.set(profile.key, profile);
    if (tag !== null) {
      state.tags.set(tag, [...(state.tags.get(tag) ?? []), profile.key]);
      state.tagOf.set(profile.key, tag);
    }
    while (state.profiles.size > MAX_PROFILES) {
      const oldest = state.profiles.keys().next().value!;
      state.profiles.delete(oldest);
      const oldTag = state.tagOf.get(oldest);
      state.tagOf.delete(oldest);
      if (oldTag === undefined) continue;
      const left = (state.tags.get(oldTag) ?? []).filter((key) => key !== oldest);
      if (left.length === 0) state.tags.delete(oldTag);
      else state.tags.set(oldTag, left);
    }
  };
  return {
    surfnet_profileTransaction: {
      writes: false,
      async run(params, context) {
        const [encoded, tagRaw, configRaw] = positional(params, 'surfnet_profileTransaction', { min: 1, max: 3 });
        if (typeof encoded !== 'string') throw invalidParams(`invalid type: ${describeType(encoded)}, expected a string`);
        const tag = tagRaw === undefined || tagRaw === null ? null : typeof tagRaw === 'string' ? tagRaw : null;
        if (tagRaw !== undefined && tagRaw !== null && tag === null) throw invalidParams(`invalid type: ${describeType(tagRaw)}, expected a string`);
        if (tag !== null && tag.length > MAX_TAG_LENGTH) throw paramsError(`A tag is at most ${MAX_TAG_LENGTH} characters`);
        const encoding = encodingOf(configRaw);
        const decoded = decodeBase64AsRust(encoded);
        if ('error' in decoded) throw paramsError('Invalid base64 transaction');
        let tx: VersionedTransaction;
        try {
          tx = VersionedTransaction.deserialize(decoded.bytes);
        } catch {
          throw paramsError('Failed to deserialize transaction');
        }
        const profile = await profileOf(context.deps.ledger, tx, decoded.bytes, encoding, parts.slot());
        keep(profile, tag);
        return withContext(profile.slot, profile);
      },
    },

    surfnet_getTransactionProfile: {
      writes: false,
      run(params) {
        const [key] = positional(params, 'surfnet_getTransactionProfile', { min: 1, max: 2 });
        if (typeof key !== 'string' || !(isUuid(key) || isSignature(key))) throw invalidParams('expected a Uuid or a valid Solana Signature');
        const profile = state.profiles.get(key) ?? null;
        return withContext(profile?.slot ?? parts.slot(), profile);
      },
    },

    surfnet_getProfileResultsByTag: {
      writes: false,
      run(params) {
        const [tag] = positional(params, 'surfnet_getProfileResultsByTag', { min: 1, max: 2 });
        if (typeof tag !== 'string') throw invalidParams(`invalid type: ${describeType(tag)}, expected a string`);
        const keys = state.tags.get(tag);
        if (keys === undefined) return withContext(parts.slot(), null);
        const profiles = keys.map((key) => state.profiles.get(key));
        if (profiles.some((profile) => profile === undefined)) {
          throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, `Profile result associated with tag '${tag}' not found in the SVM`);
        }
        return withContext(parts.slot(), profiles);
      },
    },
  };
}

async function profileOf(ledger: Ledger, tx: VersionedTransaction, bytes: Uint8Array, encoding: Encoding, slot: number): Promise<KeyedProfile> {
  const simulated = await ledger.simulateDetailed(tx, bytes, []);
  const { result, keys, before, fee } = simulated;
  const after = simulated.after ?? before;
  const ui = (index: number, account: LedgerAccount | null) => (account === null ? null : accountJson(addressOf(keys[index]!), account, { encoding }, ledger));
  const accountStates: Record<string, unknown> = {};
  const readonlyAccountStates: Record<string, unknown> = {};
  for (const [index, key] of keys.entries()) {
    const address = addressOf(key);
    if (!tx.message.isAccountWritable(index)) {
      accountStates[address] = { type: 'readonly' };
      if (before[index]) readonlyAccountStates[address] = await ui(index, before[index]);
      continue;
    }
    const was = live(before[index] ?? null);
    const is = live(after[index] ?? null);
    const change =
      was === null && is === null
        ? { type: 'unchanged', data: null }
        : was === null
          ? { type: 'create', data: await ui(index, is) }
          : is === null
            ? { type: 'delete', data: await ui(index, was) }
            : sameAccount(was, is)
              ? { type: 'unchanged', data: await ui(index, is) }
              : { type: 'update', data: [await ui(index, was), await ui(index, is)] };
    accountStates[address] = { type: 'writable', accountChange: change };
  }
  // The fee payer's outflow, as the sponsor-cost report counts a landed one: its balance before, less after;
  // a failed one pays its fee only, and one stopped before it ran (its payer missing or too poor) nothing.
  const charged = failedBeforeExecution(result.err) ? 0n : fee;
  // An engine that reports no states after a simulation (bankrun): the outflow past the fee is unknown.
  const known = simulated.after !== null || result.err !== null;
  const spent = result.err === null ? (before[0]?.lamports ?? 0n) - (after[0]?.lamports ?? 0n) : charged;
  return {
    slot,
    key: randomUUID(),
    transactionProfile: {
      accountStates,
      computeUnitsConsumed: result.computeUnitsConsumed,
      logMessages: result.logs,
      errorMessage: result.err === null ? null : transactionErrorText(result.err),
      sponsorCost: {
        feePayer: keys[0] ? addressOf(keys[0]) : null,
        feeLamports: charged,
        rentLamports: known ? spent - charged : null,
        sponsorLamports: known ? spent : null,
        computeUnits: result.computeUnitsConsumed,
      },
    },
    readonlyAccountStates,
  };
}

/** An account that holds nothing is none (a closed one reads as 0 lamports). */
function live(account: LedgerAccount | null): LedgerAccount | null {
  return account === null || account.lamports === 0n ? null : account;
}

function sameAccount(a: LedgerAccount, b: LedgerAccount): boolean {
  return a.lamports === b.lamports && a.owner.equals(b.owner) && a.executable === b.executable && Buffer.from(a.data).equals(Buffer.from(b.data));
}

function encodingOf(config: unknown): Encoding {
  if (config === undefined || config === null) return 'jsonParsed';
  if (typeof config !== 'object' || Array.isArray(config)) throw invalidParams(`invalid type: ${describeType(config)}, expected struct RpcProfileResultConfig`);
  const { encoding } = config as { encoding?: unknown };
  if (encoding === undefined || encoding === null) return 'jsonParsed';
  if (!ENCODINGS.includes(encoding as Encoding)) {
    throw invalidParams(`unknown variant \`${String(encoding)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``);
  }
  return encoding as Encoding;
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(text);
}

function isSignature(text: string): boolean {
  return /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(text);
}
