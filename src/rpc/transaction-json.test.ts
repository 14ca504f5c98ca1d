import { Keypair, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../emulator.ts';
import { ALICE, BOB, USDC, ata, build, createAtaInstructions, memoInstruction, transferInstruction } from '../../test/support/transactions.ts';
import { transactionJson, UnsupportedTransactionVersionError } from './transaction-json.ts';

describe('transactionJson', () => {
  let emulator: RelayEmulator;
  let signature: string;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    const { blockhash } = await emulator.services.ledger.latestBlockhash();
    await emulator.services.relay.relay('create', build({ instructions: createAtaInstructions(BOB.publicKey), blockhash, signers: [BOB] }));
    const send = await emulator.services.relay.relay('send', build({
      instructions: [transferInstruction(ALICE, BOB.publicKey, 1_500_000n, { checked: true }), memoInstruction('hi')],
      blockhash,
      signers: [ALICE],
    }));
    signature = send.receipt.signature;
    await emulator.settle();
  });
  afterAll(() => emulator.close());

  it('renders json like getTransaction: slot, blockTime, message, meta with token balances', () => {
    const record = emulator.services.submissions.get(signature)!;
    const json = transactionJson(record, { encoding: 'json' }) as any;
    expect(json.version).toBeUndefined();
    expect(json.slot).toBe(Number(record.ledger!.slot));
    expect(json.blockTime).toBe(record.ledger!.blockTime);
    expect(json.transaction.signatures[0]).toBe(signature);
    expect(json.transaction.message.header).toEqual({ numRequiredSignatures: 2, numReadonlySignedAccounts: 1, numReadonlyUnsignedAccounts: 3 });
    expect(json.transaction.message.instructions[0]).toMatchObject({ stackHeight: null, programIdIndex: expect.any(Number) });
    expect(json.meta).toMatchObject({ err: null, status: { Ok: null }, fee: 10000, innerInstructions: [], rewards: [], loadedAddresses: { writable: [], readonly: [] } });
    expect(json.meta.logMessages.length).toBeGreaterThan(0);
    expect(json.meta.computeUnitsConsumed).toBeGreaterThan(0);
    const pre = json.meta.preTokenBalances.find((b: any) => b.owner === BOB.publicKey.toBase58());
    const post = json.meta.postTokenBalances.find((b: any) => b.owner === BOB.publicKey.toBase58());
    expect(pre.uiTokenAmount).toEqual({ amount: '0', decimals: 6, uiAmount: 0, uiAmountString: '0' });
    expect(post).toMatchObject({ mint: USDC.toBase58(), uiTokenAmount: { amount: '1500000', decimals: 6, uiAmount: 1.5, uiAmountString: '1.5' } });
    expect(json.meta.preBalances).toHaveLength(json.transaction.message.accountKeys.length);
  });

  it('renders jsonParsed instructions and account keys as the validator parsers do', () => {
    const json = transactionJson(emulator.services.submissions.get(signature)!, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }) as any;
    expect(json.version).toBe('legacy');
    expect(json.meta.loadedAddresses).toBeUndefined();
    const [transfer, memo] = json.transaction.message.instructions;
    expect(transfer).toEqual({
      program: 'spl-token',
      programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      parsed: {
        type: 'transferChecked',
        info: {
          source: ata(ALICE.publicKey).toBase58(),
          mint: USDC.toBase58(),
          destination: ata(BOB.publicKey).toBase58(),
          tokenAmount: { amount: '1500000', decimals: 6, uiAmount: 1.5, uiAmountString: '1.5' },
          authority: ALICE.publicKey.toBase58(),
        },
      },
      stackHeight: null,
    });
    expect(memo).toMatchObject({ program: 'spl-memo', parsed: 'hi' });
    const keys = json.transaction.message.accountKeys;
    expect(keys[0]).toEqual({ pubkey: emulator.config.feePayer, signer: true, source: 'transaction', writable: true });
    const program = keys.find((key: any) => key.pubkey === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    expect(program.writable).toBe(false);
  });

  it('renders binary encodings as [data, encoding] and is null until processed', () => {
    const record = emulator.services.submissions.get(signature)!;
    expect((transactionJson(record, { encoding: 'base64' }) as any).transaction).toEqual([record.wire, 'base64']);
    const base58 = (transactionJson(record, { encoding: 'base58' }) as any).transaction;
    expect(base58[1]).toBe('base58');
    expect(transactionJson({ ...record, status: 'queued', ledger: null }, { encoding: 'json' })).toBeNull();
  });

  it('refuses a versioned transaction unless maxSupportedTransactionVersion allows it', () => {
    const record = emulator.services.submissions.get(signature)!;
    const payer = Keypair.generate();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: record.ledger!.accountKeys[0]!, instructions: [] }).compileToV0Message();
    const v0 = new VersionedTransaction(message);
    v0.sign([payer]);
    const versioned = { ...record, wire: Buffer.from(v0.serialize()).toString('base64') };
    expect(() => transactionJson(versioned, { encoding: 'json' })).toThrow(UnsupportedTransactionVersionError);
    expect((transactionJson(versioned, { encoding: 'json', maxSupportedTransactionVersion: 0 }) as any).version).toBe(0);
  });
});
