import { Keypair, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../assembly/emulator.ts';
import { ALICE, BOB, USDC, ata, build, createAtaInstructions, memoInstruction, transferInstruction } from '../../../test/support/transactions.ts';
import { ENGINE_NAMES } from '../../domain/ledger/engines.ts';
import { transactionJson, UnsupportedTransactionVersionError } from './transaction-json.ts';

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe.each(ENGINE_NAMES)('transactionJson on %s', (engine) => {
  let emulator: RelayEmulator;
  let signature: string;
  let created: string;
  beforeAll(async () => {
    emulator = await createRelayEmulator({ engine });
    const { blockhash } = await emulator.services.ledger.latestBlockhash();
    created = (await emulator.services.relay.relay('create', build({ instructions: createAtaInstructions(BOB.publicKey), blockhash, signers: [BOB] }))).receipt
      .signature;
    const send = await emulator.services.relay.relay(
      'send',
      build({
        instructions: [transferInstruction(ALICE, BOB.publicKey, 1_500_000n, { checked: true }), memoInstruction('hi')],
        blockhash,
        signers: [ALICE],
      }),
    );
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
    // A transfer and a memo invoke no other program; bankrun records no inner instructions at all.
    expect(json.meta).toMatchObject({
      err: null,
      status: { Ok: null },
      fee: 10000,
      innerInstructions: engine === 'bankrun' ? null : [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
    });
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

  it('renders the inner instructions of an ATA creation, compiled in json and base64, parsed in jsonParsed', () => {
    const record = emulator.services.submissions.get(created)!;
    const encodings = ['json', 'base64', 'base58', 'jsonParsed'] as const;
    const [json, base64, base58, parsed] = encodings.map((encoding) => (transactionJson(record, { encoding }) as any).meta.innerInstructions);
    if (engine === 'bankrun') {
      for (const inner of [json, base64, base58, parsed]) expect(inner).toBeNull();
      return;
    }
    const keys: string[] = record.ledger!.accountKeys;
    const createIndex = (transactionJson(record, { encoding: 'json' }) as any).transaction.message.instructions.findIndex(
      (ix: any) => keys[ix.programIdIndex] === 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
    );
    expect(json).toHaveLength(1);
    expect(json[0].index).toBe(createIndex);
    expect(json[0].instructions.length).toBeGreaterThanOrEqual(3);
    for (const ix of json[0].instructions) {
      expect(ix).toEqual({ programIdIndex: expect.any(Number), accounts: expect.any(Array), data: expect.any(String), stackHeight: 2 });
    }
    expect(new Set(json[0].instructions.map((ix: any) => keys[ix.programIdIndex]))).toEqual(new Set([SYSTEM, TOKEN]));
    expect(base64).toEqual(json);
    expect(base58).toEqual(json);
    const types = parsed[0].instructions.map((ix: any) => `${ix.program}:${ix.parsed?.type}`);
    expect(types).toContain('system:createAccount');
    expect(types).toContain('spl-token:initializeAccount3');
    const init = parsed[0].instructions.find((ix: any) => ix.parsed?.type === 'initializeAccount3');
    expect(init).toEqual({
      program: 'spl-token',
      programId: TOKEN,
      parsed: { type: 'initializeAccount3', info: { account: ata(BOB.publicKey).toBase58(), mint: USDC.toBase58(), owner: BOB.publicKey.toBase58() } },
      stackHeight: 2,
    });
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
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: record.ledger!.accountKeys[0]!,
      instructions: [],
    }).compileToV0Message();
    const v0 = new VersionedTransaction(message);
    v0.sign([payer]);
    const versioned = { ...record, wire: Buffer.from(v0.serialize()).toString('base64') };
    expect(() => transactionJson(versioned, { encoding: 'json' })).toThrow(UnsupportedTransactionVersionError);
    expect((transactionJson(versioned, { encoding: 'json', maxSupportedTransactionVersion: 0 }) as any).version).toBe(0);
  });
});
