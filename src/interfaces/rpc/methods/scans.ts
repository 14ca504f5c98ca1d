import { accountEncodingOf, accountJson } from '../account-json.ts';
import { accountFiltersOf, matchesFilters, scanAccounts } from '../account-filters.ts';
import { commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
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
    const value = await Promise.all(found.map(async ({ pubkey, account }) => ({ pubkey, account: await accountJson(pubkey, account, encoding, ledger) })));
    return withContextAnswer ? withContext(slot, value) : value;
  },

  /** The 20 largest balances in lamports. No account is non-circulating here, so that filter lists none. */
  async getLargestAccounts(params, context) {
    const [raw] = positional(params, 'getLargestAccounts', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    const filter = optionalVariant(config, 'filter', ['circulating', 'nonCirculating'] as const);
    const slot = contextSlot(context, {});
    if (filter === 'nonCirculating') return withContext(slot, []);
    const found = await scanAccounts(context.deps.ledger, () => true);
    const largest = found.sort((a, b) => (a.account.lamports === b.account.lamports ? 0 : a.account.lamports > b.account.lamports ? -1 : 1)).slice(0, LARGEST);
    return withContext(
      slot,
      largest.map(({ pubkey, account }) => ({ address: pubkey, lamports: account.lamports })),
    );
  },

  /** The lamports of every account the ledger knows; none is non-circulating. */
  async getSupply(params, context) {
    const [raw] = positional(params, 'getSupply', { min: 0, max: 1 });
    const config = configObject(raw);
    commitmentOf(config);
    optionalBoolean(config, 'excludeNonCirculatingAccountsList');
    const slot = contextSlot(context, {});
    const found = await scanAccounts(context.deps.ledger, () => true);
    const total = found.reduce((sum, { account }) => sum + account.lamports, 0n);
    return withContext(slot, { total, circulating: total, nonCirculating: 0, nonCirculatingAccounts: [] });
  },
};
