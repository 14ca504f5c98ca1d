import { accountEncodingOf, accountJson, answerDataBytes, MAX_ANSWER_DATA_BYTES } from '../account-json.ts';
import { bareCommitment, commitmentOf, contextSlot, withContext, type MethodTable } from '../context.ts';
import { invalidParams, paramsError } from '../json-rpc-error.ts';
import { configObject, positional, requireInteger, requirePubkey } from '../params.ts';
import { minimumBalance, rentOf } from '../../../domain/ledger/rent.ts';
import { SYSVAR_RENT_PUBKEY as SYSVAR_RENT } from '@solana/web3.js';

const MAX_MULTIPLE_ACCOUNTS = 100;

export const accountMethods: MethodTable = {
  async getAccountInfo(params, context) {
    const [address, raw] = positional(params, 'getAccountInfo', { min: 1, max: 2 });
    const key = requirePubkey(address);
    const config = configObject(raw);
    commitmentOf(config);
    const encoding = accountEncodingOf(config, 'binary');
    const slot = contextSlot(context, config);
    const { ledger } = context.deps;
    const account = await ledger.getAccount(key);
    return withContext(slot, account ? await accountJson(key.toBase58(), account, encoding, ledger) : null);
  },

  async getMultipleAccounts(params, context) {
    const [addresses, raw] = positional(params, 'getMultipleAccounts', { min: 1, max: 2 });
    if (!Array.isArray(addresses)) throw invalidParams('invalid type: expected a sequence of account addresses');
    if (addresses.length > MAX_MULTIPLE_ACCOUNTS) throw paramsError(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    const keys = addresses.map(requirePubkey);
    const config = configObject(raw);
    commitmentOf(config);
    const encoding = accountEncodingOf(config, 'base64');
    const slot = contextSlot(context, config);
    const { ledger } = context.deps;
    const accounts = await Promise.all(keys.map((key) => ledger.getAccount(key)));
    const bytes = answerDataBytes(accounts, encoding);
    if (bytes > MAX_ANSWER_DATA_BYTES)
      throw paramsError(`Too much account data requested: ${bytes} bytes; max ${MAX_ANSWER_DATA_BYTES} (ask for fewer accounts, or a dataSlice)`);
    const values = await Promise.all(accounts.map((account, index) => (account ? accountJson(keys[index]!.toBase58(), account, encoding, ledger) : null)));
    return withContext(slot, values);
  },

  async getBalance(params, context) {
    const [address, raw] = positional(params, 'getBalance', { min: 1, max: 2 });
    const key = requirePubkey(address);
    const config = configObject(raw);
    commitmentOf(config);
    const slot = contextSlot(context, config);
    const account = await context.deps.ledger.getAccount(key);
    return withContext(slot, account?.lamports ?? 0n);
  },

  async getMinimumBalanceForRentExemption(params, context) {
    const [length, raw] = positional(params, 'getMinimumBalanceForRentExemption', { min: 0, max: 2 });
    bareCommitment(raw);
    const dataLength = length === undefined ? 0 : requireInteger(length, 'usize');
    // From the Rent sysvar, as the validator computes it: the same on both engines, for any usize.
    const sysvar = await context.deps.ledger.getAccount(SYSVAR_RENT);
    return minimumBalance(rentOf(sysvar?.data ?? null), BigInt(dataLength));
  },
};
