/**
 * What each SPL instruction costs on an engine, measured through the Ledger: one scenario of the
 * instructions relays carry (a mint, a CreateIdempotent, MintToChecked, Transfer, TransferChecked,
 * CloseAccount), each top-level instruction's compute units read from the runtime's own
 * `consumed N of M` log line. program-costs.test.ts and docs/programs.md use it.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID as TOKEN,
} from '@solana/spl-token';
import { createHash } from 'node:crypto';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { genesisAccounts, keypairOf, loadFixtures } from '../fixtures/load-fixtures.ts';
import { ENGINES, type EngineName } from './engines.ts';
import { Ledger, type LedgerTransaction } from './ledger.ts';

export interface MeasuredStep {
  /** What the step does, e.g. `TransferChecked`. */
  name: string;
  /** Compute units of the step's instruction (its top-level invocation, CPIs included). */
  units: number;
  result: LedgerTransaction;
}

/** The units each top-level instruction consumed, in order, from `Program X consumed N of M compute units` at depth 1. */
export function unitsPerInstruction(logs: string[]): number[] {
  const units: number[] = [];
  let depth = 0;
  for (const line of logs) {
    if (/^Program \S+ invoke \[\d+\]$/.test(line)) depth += 1;
    const consumed = /^Program \S+ consumed (\d+) of \d+ compute units$/.exec(line);
    if (consumed && depth === 1) units.push(Number(consumed[1]));
    if (/^Program \S+ (success|failed: .*)$/.test(line)) depth -= 1;
  }
  return units;
}

/** Runs the scenario on a fresh ledger of `engine` and closes it. Each step is its own transaction; its last instruction is the one measured. */
export async function measureProgramCosts(engine: EngineName): Promise<MeasuredStep[]> {
  const fixtures = loadFixtures();
  const ledger = await Ledger.create({
    engine: ENGINES[engine],
    genesis: genesisAccounts(fixtures),
    genesisTime: new Date('2026-01-01T00:00:00Z'),
    slotMs: 400,
  });
  const payer = keypairOf(fixtures.relay.feePayer);
  const mint = Keypair.fromSeed(new Uint8Array(32).fill(11));
  const alice = Keypair.fromSeed(new Uint8Array(32).fill(12));
  const bob = Keypair.fromSeed(new Uint8Array(32).fill(13));
  const aliceAta = getAssociatedTokenAddressSync(mint.publicKey, alice.publicKey);
  const bobAta = getAssociatedTokenAddressSync(mint.publicKey, bob.publicKey);
  const steps: MeasuredStep[] = [];
  const run = async (name: string, instructions: TransactionInstruction[], signers: Keypair[] = []) => {
    const { blockhash } = await ledger.latestBlockhash();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToLegacyMessage();
    const tx = new VersionedTransaction(message);
    tx.sign([payer, ...signers]);
    const result = await ledger.process(tx);
    if (result.err !== null) throw new Error(`${engine}: ${name} failed: ${JSON.stringify(result.err)}\n${result.logs.join('\n')}`);
    steps.push({ name, units: unitsPerInstruction(result.logs).at(-1) ?? 0, result });
  };
  try {
    const rent = await ledger.minimumBalanceForRentExemption(MINT_SIZE);
    await run(
      'InitializeMint2',
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: Number(rent),
          space: MINT_SIZE,
          programId: TOKEN,
        }),
        createInitializeMint2Instruction(mint.publicKey, 6, payer.publicKey, null),
      ],
      [mint],
    );
    await run('CreateIdempotent (new account)', [
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, aliceAta, alice.publicKey, mint.publicKey),
    ]);
    await run('CreateIdempotent (existing account)', [
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, aliceAta, alice.publicKey, mint.publicKey),
    ]);
    await run('MintToChecked', [createMintToCheckedInstruction(mint.publicKey, aliceAta, payer.publicKey, 1_000_000n, 6)]);
    await run('CreateIdempotent (second account)', [createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, bobAta, bob.publicKey, mint.publicKey)]);
    await run('Transfer', [createTransferInstruction(aliceAta, bobAta, alice.publicKey, 1_000n)], [alice]);
    await run('TransferChecked', [createTransferCheckedInstruction(aliceAta, mint.publicKey, bobAta, alice.publicKey, 1_000n, 6)], [alice]);
    await run('TransferChecked (all back)', [createTransferCheckedInstruction(bobAta, mint.publicKey, aliceAta, bob.publicKey, 2_000n, 6)], [bob]);
    await run('CloseAccount', [createCloseAccountInstruction(bobAta, payer.publicKey, bob.publicKey)], [bob]);
    return steps;
  } finally {
    await ledger.close();
  }
}

/** The programs docs/programs.md lists, by address. */
export const LISTED_PROGRAMS = {
  'SPL Token': 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'Token-2022': 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'Associated Token Account': 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'Memo (v3 address)': 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo (v1 address)': 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
} as const;

/**
 * The sha256 (hex) of the code an engine runs at each listed program's address: the program-data
 * account's ELF for upgradeable programs, the account's data otherwise.
 */
export async function programHashes(engine: EngineName): Promise<Record<keyof typeof LISTED_PROGRAMS, string>> {
  const ledger = await Ledger.create({ engine: ENGINES[engine], genesis: [], genesisTime: new Date('2026-01-01T00:00:00Z'), slotMs: 400 });
  try {
    const hashes = {} as Record<keyof typeof LISTED_PROGRAMS, string>;
    for (const [name, address] of Object.entries(LISTED_PROGRAMS) as [keyof typeof LISTED_PROGRAMS, string][]) {
      const program = await ledger.getAccount(new PublicKey(address));
      if (!program) throw new Error(`${engine} has no program at ${address}`);
      let code = program.data;
      if (program.owner.toBase58() === 'BPFLoaderUpgradeab1e11111111111111111111111') {
        const programData = await ledger.getAccount(new PublicKey(program.data.subarray(4, 36)));
        // UpgradeableLoaderState::ProgramData: tag (4), slot (8), upgrade authority option (1 + 32), then the ELF.
        code = programData!.data.subarray(45);
      }
      hashes[name] = createHash('sha256').update(code).digest('hex');
    }
    return hashes;
  } finally {
    await ledger.close();
  }
}
