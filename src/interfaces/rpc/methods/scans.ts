import { accountEncodingOf, accountJson, answerDataBytes, MAX_ANSWER_DATA_BYTES } from '../account-json.ts';
import { JsonRpcError, RPC_ERROR } from '../json-rpc-error.ts';
import { accountFiltersOf, matchesFilters, scanAccounts } from '../account-filters.ts';
import { commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { nonCirculatingSupply } from '../non-circulating.ts';
import { configObject, optionalBoolean, optionalVariant, positional, requirePubkey } from '../params.ts';

/** getLargestAccounts answers at most this many, as the validator does. */
const LARGEST = 20;

/**
 * Methods that look at every account: they read each address the ledger knows (genesis and every
 * one written since); the runtime's own accounts (builtins, the bundled programs, sysvars) are not
 * among them (account-filters.ts).
 */
export const scanMethods: MethodTable = {
  async getProgramAccounts(params, context) {
    const [program, raw] = positional(params, 'getProgramAccounts', { min: 1, max: 2 });
    const owner = requirePubkey(program);
    const config = configObject(raw);
    commitmentOf(config);
    const encoding = accountEncodingOf(config, 'binary');
    const filters = accountFiltersOf(config.filters);
    const withContextAnswer = optionalBoolean(config, 'withContext') ?? false;
    optionalBoolean(config, 'sortResults');
    const slot = contextSlot(context, config);
    const { ledger } = context.deps;
    const found = await scanAccounts(ledger, (account) => account.owner.equals(owner) && matchesFilters(account, filters));
    const bytes = answerDataBytes(
      found.map(({ account }) => account),
      encoding,
    );
    // As Agave aborts a scan past its results limit (-32012, ScanError): here past the answer's bound.
    if (bytes > MAX_ANSWER_DATA_BYTES)
      throw new JsonRpcError(
        RPC_ERROR.SCAN_ERROR,
        `scan aborted: Exceeded max scan size: ${bytes} bytes of account data; max ${MAX_ANSWER_DATA_BYTES} (add filters, or a dataSlice)`,
      );
    const value = await Promise.all(found.map(async ({ pubkey, account }) => ({ pubkey, account: await accountJson(pubkey, account, encoding, ledger) })));
    return withContextAnswer ? withContext(slot, value) : value;
  },

  /** The 20 largest balances in lamports, of every account, the circulating or the non-circulating ones (non-circulating.ts). */
  async getLargestAccounts(params, context) {
    const [raw] = positional(params, 'getLargestAccounts', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const filter = optionalVariant(config, 'filter', ['circulating', 'nonCirculating'] as const);
    const slot = contextSlot(context, {});
    const non = filter === undefined ? null : new Set((await nonCirculatingSupply(context.deps.ledger)).accounts);
    const found = (await scanAccounts(context.deps.ledger, () => true)).filter(
      ({ pubkey }) => non === null || (filter === 'nonCirculating') === non.has(pubkey),
    );
    const largest = found.sort((a, b) => (a.account.lamports === b.account.lamports ? 0 : a.account.lamports > b.account.lamports ? -1 : 1)).slice(0, LARGEST);
    return withContext(
      slot,
      largest.map(({ pubkey, account }) => ({ address: pubkey, lamports: account.lamports })),
    );
  },

  /** The lamports of every account the ledger knows, and the non-circulating part as Agave counts it (non-circulating.ts). */
  async getSupply(params, context) {
    const [raw] = positional(params, 'getSupply', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const exclude = optionalBoolean(config, 'excludeNonCirculatingAccountsList') ?? false;
    const slot = contextSlot(context, {});
    const found = await scanAccounts(context.deps.ledger, () => true);
    const total = found.reduce((sum, { account }) => sum + account.lamports, 0n);
    const non = await nonCirculatingSupply(context.deps.ledger);
    // Surfpool's surfnet_setSupply: the figures it set, each in place of the one counted.
    const set = context.deps.supply?.current ?? {};
    const accounts = set.nonCirculatingAccounts ?? non.accounts;
    return withContext(slot, {
      total: set.total ?? total,
      circulating: set.circulating ?? total - non.lamports,
      nonCirculating: set.nonCirculating ?? non.lamports,
      nonCirculatingAccounts: exclude ? [] : accounts,
    });
  },
};
