import { PublicKey } from '@solana/web3.js';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { toAccountSnapshot } from '../../../domain/fixtures/surfpool-snapshot.ts';
import { BPF_LOADER_2, UPGRADEABLE_LOADER } from '../../../domain/ledger/program-accounts.ts';
import { accountJson, MAX_ANSWER_DATA_BYTES } from '../../rpc/account-json.ts';
import { withContext } from '../../rpc/context.ts';
import { invalidParams, paramsError } from '../../rpc/json-rpc-error.ts';
import { describeType, positional, requirePubkey } from '../../rpc/params.ts';
import type { Cheatcode, CheatcodeParts, CheatcodeState } from './cheatcode-state.ts';
import { u64 } from './params.ts';

/** Owners whose accounts an export leaves out unless asked (programs and their data), as Surfpool's does. */
const PROGRAM_OWNERS = new Set([BPF_LOADER_2.toBase58(), 'BPFLoader1111111111111111111111111111111111', UPGRADEABLE_LOADER.toBase58()]);

/**
 * Surfpool's cheatcodes that report on the network or set its figures: the runbooks run
 * (getSurfnetInfo, which Anchor 1.x polls without a token: it only reads), the local transactions
 * newest first, the supply getSupply answers, and the accounts as a snapshot that `--snapshot` loads back.
 */
export function infoCheatcodes(parts: CheatcodeParts, state: CheatcodeState): Record<string, Cheatcode> {
  return {
    surfnet_getSurfnetInfo: {
      writes: false,
      run(params) {
        positional(params, 'surfnet_getSurfnetInfo', { min: 0, max: 0 });
        return withContext(parts.slot(), { runbookExecutions: parts.runbookExecutions() });
      },
    },

    surfnet_getLocalSignatures: {
      writes: false,
      run(params) {
        const [raw] = positional(params, 'surfnet_getLocalSignatures', { min: 0, max: 1 });
        const limit = raw === undefined || raw === null ? 50 : Number(u64(raw, 'limit'));
        const landed = parts.controls
          .transactionJournal()
          .filter((entry) => entry.slot !== null)
          .sort((a, b) => (b.slot ?? 0) - (a.slot ?? 0));
        return withContext(
          parts.slot(),
          landed.slice(0, limit).map(({ signature, err, logs }) => ({ signature, err, logs })),
        );
      },
    },

    surfnet_setSupply: {
      writes: true,
      run(params) {
        const [raw] = positional(params, 'surfnet_setSupply', { min: 1, max: 1 });
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
          throw invalidParams(`invalid type: ${describeType(raw)}, expected struct SupplyUpdate`);
        // Surfpool's SupplyUpdate has no camelCase rename: its keys are snake_case.
        const update = raw as Record<string, unknown>;
        const next = { ...(parts.supply.current ?? {}) };
        if (update.total !== undefined && update.total !== null) next.total = u64(update.total, 'total');
        if (update.circulating !== undefined && update.circulating !== null) next.circulating = u64(update.circulating, 'circulating');
        if (update.non_circulating !== undefined && update.non_circulating !== null) next.nonCirculating = u64(update.non_circulating, 'non_circulating');
        const accounts = update.non_circulating_accounts;
        if (accounts !== undefined && accounts !== null) {
          if (!Array.isArray(accounts)) throw invalidParams(`invalid type: ${describeType(accounts)}, expected a sequence`);
          next.nonCirculatingAccounts = accounts.map((account, index) => {
            if (typeof account !== 'string' || !isAddress(account)) throw paramsError(`Invalid pubkey '${String(account)}' at index ${index}`);
            return account;
          });
        }
        parts.supply.current = next;
        return withContext(parts.slot(), null);
      },
    },

    surfnet_exportSnapshot: {
      writes: false,
      async run(params, context) {
        const [raw] = positional(params, 'surfnet_exportSnapshot', { min: 0, max: 1 });
        const config = exportConfig(raw);
        const ledger = context.deps.ledger;
        let keys: PublicKey[];
        if (config.preTransaction !== null) {
          // The accounts a profiled transaction touched, as they were before it; an unknown one, none.
          const profile = state.profiles.get(config.preTransaction);
          const states = (profile?.transactionProfile as { accountStates?: Record<string, unknown> } | undefined)?.accountStates ?? {};
          keys = Object.keys(states).map((address) => new PublicKey(address));
        } else {
          keys = (await parts.controls.accountDumps()).map(({ pubkey }) => new PublicKey(pubkey));
        }
        const accounts = await ledger.readAccounts(keys);
        // As getProgramAccounts: at most 64 MiB of account data in one answer (a ledger of big accounts is exported in parts).
        const bytes = accounts.reduce((sum, account, index) => {
          const address = addressOf(keys[index]!);
          return account === null || config.exclude.has(address) ? sum : sum + account.data.length;
        }, 0);
        if (bytes > MAX_ANSWER_DATA_BYTES) {
          throw paramsError(
            `Too much account data to export: ${bytes} bytes; max ${MAX_ANSWER_DATA_BYTES} ` +
              '(filter.includeAccounts, filter.excludeAccounts, or scope preTransaction)',
          );
        }
        const value: Record<string, unknown> = {};
        const entries = keys.map((key, index) => [addressOf(key), accounts[index] ?? null] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        for (const [address, account] of entries) {
          if (account === null || config.exclude.has(address)) continue;
          if (PROGRAM_OWNERS.has(addressOf(account.owner)) && !config.includePrograms && !config.include.has(address)) continue;
          const parsed = config.parsed ? ((await accountJson(address, account, { encoding: 'jsonParsed' }, ledger)).data as unknown) : null;
          value[address] = toAccountSnapshot({
            lamports: account.lamports,
            owner: addressOf(account.owner),
            executable: account.executable,
            data: account.data,
            ...(account.rentEpoch === undefined ? {} : { rentEpoch: account.rentEpoch }),
            parsedData: Array.isArray(parsed) ? null : parsed,
          });
        }
        return withContext(parts.slot(), value);
      },
    },
  };
}

function isAddress(text: string): boolean {
  try {
    requirePubkey(text);
    return true;
  } catch {
    return false;
  }
}

/** ExportSnapshotConfig: camelCase, `scope` required when a config is given (it has no serde default). */
function exportConfig(raw: unknown) {
  const none = { parsed: false, includePrograms: false, include: new Set<string>(), exclude: new Set<string>(), preTransaction: null as string | null };
  if (raw === undefined || raw === null) return none;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams(`invalid type: ${describeType(raw)}, expected struct ExportSnapshotConfig`);
  const config = raw as Record<string, unknown>;
  if (!('scope' in config)) throw invalidParams('missing field `scope`');
  const scope = config.scope;
  let preTransaction: string | null = null;
  if (typeof scope === 'object' && scope !== null && typeof (scope as Record<string, unknown>).preTransaction === 'string') {
    preTransaction = (scope as Record<string, string>).preTransaction!;
  } else if (scope !== 'network') throw invalidParams('unknown variant, expected `network` or `preTransaction`');
  const filter = (typeof config.filter === 'object' && config.filter !== null ? config.filter : {}) as Record<string, unknown>;
  const list = (value: unknown) => new Set(Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  return {
    parsed: config.includeParsedAccounts === true,
    includePrograms: filter.includeProgramAccounts === true,
    include: list(filter.includeAccounts),
    exclude: list(filter.excludeAccounts),
    preTransaction,
  };
}
