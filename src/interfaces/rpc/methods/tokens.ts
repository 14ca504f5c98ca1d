import { PublicKey } from '@solana/web3.js';
import { decodeMint, decodeTokenAccount, isTokenProgram } from '../../../domain/ledger/token-accounts.ts';
import { accountEncodingOf, accountJson } from '../account-json.ts';
import { scanAccounts } from '../account-filters.ts';
import { bareCommitment, commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { invalidParam, invalidParams } from '../json-rpc-error.ts';
import { configObject, positional, requirePubkey } from '../params.ts';
import { uiTokenAmount } from '../ui-token-amount.ts';

/** getTokenLargestAccounts answers at most this many, as the validator does. */
const LARGEST_TOKEN_ACCOUNTS = 20;

export const tokenMethods: MethodTable = {
  async getTokenAccountBalance(params, context) {
    const [address, raw] = positional(params, 'getTokenAccountBalance', { min: 1, max: 2 });
    const key = requirePubkey(address);
    bareCommitment(raw);
    const slot = contextSlot(context, {});
    const { ledger } = context.deps;
    const account = await ledger.getAccount(key);
    if (!account) throw invalidParam('could not find account');
    const token = decodeTokenAccount(account);
    if (!token) throw invalidParam('not a Token account');
    const decimals = await ledger.mintDecimals(token.mint);
    if (decimals === null) throw invalidParam('could not find mint');
    return withContext(slot, uiTokenAmount(token.amount, decimals));
  },

  /** Token accounts whose delegate is `delegate`, of one program or one mint, from a scan of every account (account-filters.ts). */
  async getTokenAccountsByDelegate(params, context) {
    const [address, rawFilter, raw] = positional(params, 'getTokenAccountsByDelegate', { min: 2, max: 3 });
    const delegate = requirePubkey(address).toBase58();
    const config = configObject(raw);
    commitmentOf(config);
    const encoding = accountEncodingOf(config, 'binary');
    const { ledger } = context.deps;
    const filter = await filterOf(rawFilter, ledger);
    const slot = contextSlot(context, config);
    const found = await scanAccounts(ledger, (account) => {
      const token = decodeTokenAccount(account);
      return token !== null && token.delegate === delegate && token.programId === filter.programId && (filter.mint === undefined || token.mint === filter.mint);
    });
    return withContext(
      slot,
      await Promise.all(found.map(async ({ pubkey, account }) => ({ pubkey, account: await accountJson(pubkey, account, encoding, ledger) }))),
    );
  },

  /** The 20 largest token accounts of a mint, largest first. */
  async getTokenLargestAccounts(params, context) {
    const [address, raw] = positional(params, 'getTokenLargestAccounts', { min: 1, max: 2 });
    const key = requirePubkey(address);
    bareCommitment(raw);
    const slot = contextSlot(context, {});
    const { ledger } = context.deps;
    const mint = decodeMint(await ledger.getAccount(key));
    if (!mint) throw invalidParam('Token mint could not be unpacked');
    const mintAddress = key.toBase58();
    const holders = (await scanAccounts(ledger, (account) => decodeTokenAccount(account)?.mint === mintAddress)).map(({ pubkey, account }) => ({
      address: pubkey,
      amount: decodeTokenAccount(account)!.amount,
    }));
    holders.sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
    return withContext(
      slot,
      holders.slice(0, LARGEST_TOKEN_ACCOUNTS).map(({ address: holder, amount }) => ({ address: holder, ...uiTokenAmount(amount, mint.decimals) })),
    );
  },

  /** Token accounts of `owner` from the emulator's owner index, each re-checked on the ledger. */
  async getTokenAccountsByOwner(params, context) {
    const [address, rawFilter, raw] = positional(params, 'getTokenAccountsByOwner', { min: 2, max: 3 });
    const owner = requirePubkey(address).toBase58();
    const config = configObject(raw);
    commitmentOf(config);
    const encoding = accountEncodingOf(config, 'binary');
    const { ledger, tokenAccounts } = context.deps;
    const filter = await filterOf(rawFilter, context.deps.ledger);
    const slot = contextSlot(context, config);
    const value: { pubkey: string; account: Record<string, unknown> }[] = [];
    for (const pubkey of tokenAccounts.of(owner)) {
      const account = await ledger.getAccount(new PublicKey(pubkey));
      const token = decodeTokenAccount(account);
      if (!account || !token || token.owner !== owner) continue;
      if (token.programId !== filter.programId || (filter.mint !== undefined && token.mint !== filter.mint)) continue;
      value.push({ pubkey, account: await accountJson(pubkey, account, encoding, ledger) });
    }
    return withContext(slot, value);
  },

  async getTokenSupply(params, context) {
    const [address, raw] = positional(params, 'getTokenSupply', { min: 1, max: 2 });
    const key = requirePubkey(address);
    bareCommitment(raw);
    const slot = contextSlot(context, {});
    const account = await context.deps.ledger.getAccount(key);
    if (!account) throw invalidParam('could not find account');
    const mint = decodeMint(account);
    if (!mint) throw invalidParam('not a Token mint');
    return withContext(slot, uiTokenAmount(mint.supply, mint.decimals));
  },
};

/** `{mint}` or `{programId}`: resolved to the token program, and the mint when given. */
async function filterOf(
  value: unknown,
  ledger: { getAccount(address: PublicKey): Promise<{ owner: PublicKey } | null> },
): Promise<{ programId: string; mint?: string }> {
  const filter = (value ?? {}) as Record<string, unknown>;
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(filter) : [];
  if (keys.length !== 1 || (keys[0] !== 'mint' && keys[0] !== 'programId')) {
    throw invalidParams('data did not match any variant of untagged enum RpcTokenAccountsFilter');
  }
  if (keys[0] === 'programId') {
    const programId = requirePubkey(filter.programId);
    if (!isTokenProgram(programId)) throw invalidParam('unrecognized Token program id');
    return { programId: programId.toBase58() };
  }
  const mint = requirePubkey(filter.mint);
  const account = await ledger.getAccount(mint);
  if (!account || !isTokenProgram(account.owner)) throw invalidParam('could not find mint');
  return { programId: account.owner.toBase58(), mint: mint.toBase58() };
}
