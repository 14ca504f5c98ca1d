/**
 * Issue 51, cause 7: simulateTransaction and the preflight answer as Agave 4.1's do (rpc.rs
 * simulate_transaction; kit 8.4's tests): the result's fields in its order, with the fee, the
 * balances and token balances before and after, the accounts loaded from tables and the data
 * loaded; `accounts` returns the state after it of the transaction's own accounts (null for any
 * other) and is refused past their number or in base58. On bankrun, which reports no
 * post-simulation states, the balances after are those before, and `accounts` shows the state before.
 */
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { rpcAt, type Rpc } from './support/json-rpc.ts';

describe('simulateTransaction as Agave 4.1 answers it', () => {
  let emulator: RelayEmulator;
  let rpc: Rpc;
  const payer = Keypair.generate();
  const to = Keypair.generate().publicKey;

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    rpc = rpcAt(emulator.config.rpcUrl);
    await emulator.faucet({ address: payer.publicKey.toBase58(), lamports: 1_000_000_000 });
  });
  afterAll(() => emulator.close());

  const transfer = async (lamports = 2_000_000) => {
    const { blockhash } = (await rpc('getLatestBlockhash')).value;
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 0 }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }),
    );
    tx.sign(payer);
    return tx.serialize().toString('base64');
  };

  it('answers every field, in Agave’s order, with the fee and the balances', async () => {
    const { value } = await rpc('simulateTransaction', [await transfer(), { encoding: 'base64' }]);
    expect(Object.keys(value)).toEqual([
      'err',
      'logs',
      'accounts',
      'unitsConsumed',
      'loadedAccountsDataSize',
      'returnData',
      'innerInstructions',
      'replacementBlockhash',
      'fee',
      'preBalances',
      'postBalances',
      'preTokenBalances',
      'postTokenBalances',
      'loadedAddresses',
    ]);
    expect(value).toMatchObject({ err: null, accounts: null, fee: 5000, preBalances: [1_000_000_000, 0, 1], loadedAddresses: { writable: [], readonly: [] } });
    expect(value.loadedAccountsDataSize).toBeGreaterThan(0);
    if (emulator.config.engine === 'litesvm') expect(value.postBalances).toEqual([1_000_000_000 - 5000 - 2_000_000, 2_000_000, 1]);
  });

  it('returns the transaction’s own accounts after it, null for another, and refuses too many or base58', async () => {
    const other = Keypair.generate().publicKey.toBase58();
    const { value } = await rpc('simulateTransaction', [
      await transfer(),
      { encoding: 'base64', accounts: { addresses: [to.toBase58(), other], encoding: 'base64' } },
    ]);
    expect(value.accounts[1]).toBe(null);
    if (emulator.config.engine === 'litesvm')
      expect(value.accounts[0]).toMatchObject({ lamports: 2_000_000, data: ['', 'base64'], owner: '11111111111111111111111111111111' });
    await expect(rpc('simulateTransaction', [await transfer(), { encoding: 'base64', accounts: { addresses: [other, other, other, other] } }])).rejects.toThrow(
      /Too many accounts provided; max 3$/,
    );
    await expect(rpc('simulateTransaction', [await transfer(), { encoding: 'base64', accounts: { addresses: [other], encoding: 'base58' } }])).rejects.toThrow(
      /base58 encoding not supported$/,
    );
  });

  it('a failed simulation returns null for every account asked for', async () => {
    const { value } = await rpc('simulateTransaction', [await transfer(5_000_000_000), { encoding: 'base64', accounts: { addresses: [to.toBase58()] } }]);
    expect(value.err).not.toBe(null);
    expect(value.accounts).toEqual([null]);
  });
});
