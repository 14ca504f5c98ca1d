/**
 * Issue 33, through a restart: a lookup table, and what a transaction that used it did, survive a
 * clean stop and start of `relay-emulator start --state-file` (the in-process part is
 * test/lookup-tables-and-nonces.engines.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  Keypair,
  type PublicKey,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { expect, it } from 'vitest';
import { startCli } from '../support/cli-process.ts';
import { slotHashes } from '../support/slot-hashes.ts';

it('keeps a table and what a transaction that used it did through a restart on a state file', async () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'relay-emulator-alt-')), 'state.json');
  let cli = await startCli(['--state-file', stateFile]);
  const user = Keypair.generate();
  const holder = Keypair.generate().publicKey;
  let table: PublicKey;
  try {
    const web3 = new Connection(cli.rpcUrl, 'confirmed');
    await web3.confirmTransaction(await web3.requestAirdrop(user.publicKey, 2_000_000_000), 'confirmed');
    const [create, address] = AddressLookupTableProgram.createLookupTable({
      authority: user.publicKey,
      payer: user.publicKey,
      recentSlot: await web3.getSlot(),
    });
    table = address;
    const extend = AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: user.publicKey, payer: user.publicKey, addresses: [holder] });
    const build = async (instructions: TransactionInstruction[], tables: AddressLookupTableAccount[] = []) => {
      const message = new TransactionMessage({
        payerKey: user.publicKey,
        recentBlockhash: (await web3.getLatestBlockhash()).blockhash,
        instructions,
      }).compileToV0Message(tables);
      const tx = new VersionedTransaction(message);
      tx.sign([user]);
      const signature = await web3.sendRawTransaction(tx.serialize());
      expect((await web3.confirmTransaction(signature, 'confirmed')).value.err).toBeNull();
    };
    await build([create, extend]);
    const warped = await fetch(`${cli.origin}/__emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ warpSlots: 1 }),
    });
    expect(warped.status).toBe(200);
    const { value: lookup } = await web3.getAddressLookupTable(table);
    await build([SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: holder, lamports: 7_000_000 })], [lookup!]);
  } finally {
    expect(await cli.stop()).toBe(0);
  }
  cli = await startCli(['--state-file', stateFile]);
  try {
    const web3 = new Connection(cli.rpcUrl, 'confirmed');
    const { value: lookup } = await web3.getAddressLookupTable(table!);
    expect(lookup!.state.addresses.map(String)).toEqual([holder.toBase58()]);
    expect(await web3.getBalance(holder)).toBe(7_000_000);
    const [latest] = await web3.getSignaturesForAddress(holder);
    const tx = await web3.getTransaction(latest!.signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    expect(tx!.meta!.loadedAddresses).toEqual({ writable: [holder], readonly: [] });
    // SlotHashes holds the slots from before the restart: a table made with one of them is made.
    const slot = await web3.getSlot();
    expect((await slotHashes(web3)).at(0)).toBe(BigInt(slot));
  } finally {
    await cli.stop();
  }
}, 60_000);
