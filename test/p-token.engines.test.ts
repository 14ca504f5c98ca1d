/**
 * SPL Token is p-token (SIMD-0266) on the default engine: its Batch instruction runs, and
 * getTransaction's jsonParsed names it. bankrun runs the 2024 SPL Token, which refuses Batch as an
 * invalid instruction (docs/programs.md): the same transaction fails there, as it would have on
 * mainnet before epoch 971.
 */
import { createTransferCheckedInstruction } from '@solana/spl-token';
import { Connection, LAMPORTS_PER_SOL, Transaction, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { ALICE, BOB, USDC, ata } from './support/transactions.ts';

describe('p-token', () => {
  let emulator: RelayEmulator;
  let connection: Connection;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    connection = new Connection(emulator.config.rpcUrl, 'confirmed');
    await emulator.faucet({ address: ALICE.publicKey.toBase58(), lamports: LAMPORTS_PER_SOL });
    await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
  });
  afterAll(() => emulator.close());

  it('runs Batch on the default engine and names it in jsonParsed', async () => {
    const one = createTransferCheckedInstruction(ata(ALICE.publicKey), USDC, ata(BOB.publicKey), ALICE.publicKey, 1_000n, 6);
    const two = createTransferCheckedInstruction(ata(ALICE.publicKey), USDC, ata(BOB.publicKey), ALICE.publicKey, 2_000n, 6);
    // Batch (255): each instruction as [accounts, data length, data], their accounts one after the other.
    const data = Buffer.from([255, ...[one, two].flatMap((ix) => [ix.keys.length, ix.data.length, ...ix.data])]);
    const batch = new TransactionInstruction({ programId: one.programId, keys: [...one.keys, ...two.keys], data });
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: ALICE.publicKey, blockhash, lastValidBlockHeight: 0 }).add(batch);
    tx.sign(ALICE);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    await emulator.settle();
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const instruction = parsed!.transaction.message.instructions[0] as {
      program: string;
      parsed: { type: string; info: { instructions: { type: string }[] } };
    };
    expect(instruction.program).toBe('spl-token');
    expect(instruction.parsed.type).toBe('batch');
    expect(instruction.parsed.info.instructions.map((each) => each.type)).toEqual(['transferChecked', 'transferChecked']);
    const bob = await connection.getTokenAccountBalance(ata(BOB.publicKey));
    if (emulator.config.engine === 'litesvm') {
      expect(parsed!.meta!.err).toBeNull();
      expect(bob.value.amount).toBe('3000');
      expect(parsed!.meta!.computeUnitsConsumed).toBeLessThan(500); // Two TransferChecked on the 2024 program: over 12,000.
    } else {
      // SPL Token 3.5.0 knows no instruction 255.
      expect(parsed!.meta!.err).toEqual({ InstructionError: [0, { Custom: 12 }] });
      expect(bob.value.amount).toBe('0');
    }
  });
});
