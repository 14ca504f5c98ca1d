/**
 * Lookup tables as kit's users make them (issue 33): @solana-program/address-lookup-table 0.12.1,
 * the client kit's docs point to, with the @solana/kit it is released for (6.9; installed apart,
 * test/real-clients/lookup-tables/, its own lockfile), against the emulator's RPC URL and nothing
 * else: create and extend a table, fetch it, and send a v0 transaction that kit compresses with it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { installJudge } from '../support/judge-install.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/lookup-tables/', import.meta.url));

/** The judge's packages are loaded at run time, from their own install: untyped here. */
type Any = any;

describe('kit’s address lookup table client', () => {
  let emulator: RelayEmulator;
  let kit: Any;
  let alt: Any;
  let system: Any;
  let rpc: Any;

  beforeAll(async () => {
    const require = createRequire(join(await installJudge(JUDGE), 'package.json'));
    kit = require('@solana/kit');
    alt = require('@solana-program/address-lookup-table');
    system = require('@solana-program/system');
    emulator = await createRelayEmulator();
    rpc = kit.createSolanaRpc(emulator.config.rpcUrl);
  }, 5 * 60_000);
  afterAll(async () => {
    await emulator?.close();
  });

  /** Builds, signs and sends a v0 message as kit's docs do, and waits until getSignatureStatuses says confirmed. */
  async function send(payer: Any, instructions: Any[], tables: Record<string, string[]> = {}): Promise<string> {
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const message = kit.pipe(
      kit.createTransactionMessage({ version: 0 }),
      (m: Any) => kit.setTransactionMessageFeePayerSigner(payer, m),
      (m: Any) => kit.setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m: Any) => kit.appendTransactionMessageInstructions(instructions, m),
      (m: Any) => kit.compressTransactionMessageUsingAddressLookupTables(m, tables),
    );
    const signed = await kit.signTransactionMessageWithSigners(message);
    const signature = kit.getSignatureFromTransaction(signed);
    await rpc.sendTransaction(kit.getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const { value } = await rpc.getSignatureStatuses([signature]).send();
      if (value[0]?.confirmationStatus) {
        expect(value[0].err).toBeNull();
        return signature;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${signature} was never confirmed`);
  }

  it('creates and extends a table, fetches it, and sends a v0 transaction compressed with it', async () => {
    const payer = await kit.generateKeyPairSigner();
    await emulator.faucet({ address: payer.address, lamports: 5_000_000_000n });
    const recentSlot = await rpc.getSlot({ commitment: 'finalized' }).send();
    const create = await alt.getCreateLookupTableInstructionAsync({ authority: payer.address, payer, recentSlot });
    const [table] = await alt.findAddressLookupTablePda({ authority: payer.address, recentSlot });
    const holders = await Promise.all([kit.generateKeyPairSigner(), kit.generateKeyPairSigner()]).then((keys) => keys.map((key: Any) => key.address));
    const extend = alt.getExtendLookupTableInstruction({ address: table, authority: payer, payer, addresses: holders });
    await send(payer, [create, extend]);
    await emulator.warp({ slots: 1 });

    const fetched = await alt.fetchAddressLookupTable(rpc, table);
    expect(fetched.data.addresses).toEqual(holders);
    expect(fetched.data.authority).toEqual({ __option: 'Some', value: payer.address });

    const transfers = holders.map((destination: string) => system.getTransferSolInstruction({ source: payer, destination, amount: 1_234_567n }));
    const signature = await send(payer, transfers, { [table]: holders });
    const tx = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
    // Kit orders a message's accounts by address, so the indexes come in either order; what they load is what they name.
    const [lookup] = tx.transaction.message.addressTableLookups;
    expect(tx.transaction.message.addressTableLookups).toHaveLength(1);
    expect({ ...lookup, writableIndexes: [...lookup.writableIndexes].sort() }).toEqual({ accountKey: table, writableIndexes: [0, 1], readonlyIndexes: [] });
    expect(tx.meta.loadedAddresses).toEqual({ writable: lookup.writableIndexes.map((index: number) => holders[index]), readonly: [] });
    for (const holder of holders) expect((await rpc.getBalance(holder).send()).value).toBe(1_234_567n);
  });
});
