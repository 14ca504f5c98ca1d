/**
 * An Anchor workspace loaded by `start` (option `anchor`), beside flags that name its programs
 * (issue 45, item 16: the README's own `--upgradeable-program` line failed inside a workspace, "named
 * twice"), with its `[test.validator]` genesis keys honoured and the others named (issue 43).
 * The workspace is test/real-clients/anchor/workspace: anchor-bankrun's puppet pair.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { koraCaller } from './support/kora.ts';
import { build } from './support/transactions.ts';

const WORKSPACE = fileURLToPath(new URL('./real-clients/anchor/workspace', import.meta.url));
const PUPPET = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';
const PUPPET_MASTER = 'HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L';

/** puppet's initialize (its IDL's discriminator, no arguments): `puppet` a new account both it and `user`, the payer, sign. */
function initializePuppet(puppet: PublicKey, user: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(PUPPET),
    keys: [
      { pubkey: puppet, isSigner: true, isWritable: true },
      { pubkey: user, isSigner: true, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([175, 175, 109, 31, 13, 152, 155, 237]),
  });
}

describe('an Anchor workspace with a flag that names one of its programs', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator({
      anchor: WORKSPACE,
      programs: [{ programId: PUPPET, path: `${WORKSPACE}/target/deploy/puppet.so`, upgradeAuthority: null, loader: 'upgradeable' }],
    });
  });
  afterAll(() => emulator.close());

  it('loads the program the flag gives, and says the workspace named it too', async () => {
    const { programs } = await emulator.programs();
    expect(programs.find((program) => program.programId === PUPPET)).toMatchObject({ loader: 'upgradeable' });
    expect(programs.map((program) => program.programId)).toContain('HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L');
    expect(emulator.warnings).toContainEqual(
      `${WORKSPACE}/target/deploy/puppet.so: ${WORKSPACE}/Anchor.toml names ${PUPPET} too; the program given by flag or option is loaded ` +
        '(--no-anchor, or option anchor left out, loads no workspace)',
    );
  });

  it('honours [test.validator] slots_per_epoch and accounts, and names the keys it does not honour', async () => {
    expect(emulator.services.ledger.epochSchedule.slotsPerEpoch).toBe(64n);
    expect(await emulator.getAccount('2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR')).toMatchObject({ owner: PUPPET });
    expect(emulator.warnings).toContainEqual(
      expect.stringMatching(/Anchor\.toml: \[test\.validator\] bind_address, rpc_port, faucet_port not honoured by this start/),
    );
  });
});

describe("an Anchor app's instructions, relayed, by its IDLs", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ anchor: WORKSPACE });
  });
  afterAll(() => h.close());

  const idl = (name: string) => JSON.parse(readFileSync(`${WORKSPACE}/target/idl/${name}.json`, 'utf8'));
  const discriminator = (program: string, name: string) =>
    Buffer.from(idl(program).instructions.find((ix: { name: string }) => ix.name === name).discriminator as number[]);
  const u64 = (value: bigint) => Buffer.from(new BigUint64Array([value]).buffer);
  const relay = async (instructions: TransactionInstruction[], signers: Keypair[]) => {
    const signedTransaction = build({ instructions, blockhash: await h.blockhash(), signers });
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction } });
    expect(status, JSON.stringify(body)).toBe(200);
    await h.emulator.settle();
    return body.signature as string;
  };
  /** The web UI's detail of a relay (GET /__emulator/relays/{id}), through the emulator's fetch. */
  const detailOf = async (signature: string) => {
    const response = await h.emulator.fetch(new Request(`${new URL(h.emulator.config.baseUrl).origin}/__emulator/relays/${signature}`));
    expect(response.status).toBe(200);
    return (await response.json()) as { row: { error: string | null }; idlInstructions: unknown[] };
  };

  it('names an Anchor framework error as Anchor does, in the transaction journal (issue 45, item 13)', async () => {
    // puppet's set_data on an account nobody created: Anchor's own 3012, in no IDL.
    const nobody = Keypair.generate().publicKey;
    const setData = new TransactionInstruction({
      programId: new PublicKey(PUPPET),
      keys: [{ pubkey: nobody, isSigner: false, isWritable: true }],
      data: Buffer.concat([discriminator('puppet', 'set_data'), u64(5n)]),
    });
    const signature = await relay([setData], []);
    const entry = h.emulator.transactionJournal().find((journaled) => journaled.signature === signature);
    expect(entry?.err).toEqual({ InstructionError: [0, { Custom: 3012 }] });
    expect(entry?.errorText).toBe('instruction 1 (puppet set_data): AccountNotInitialized');
    // The relay list says the same.
    expect((await detailOf(signature)).row.error).toBe('instruction 1 (puppet set_data): AccountNotInitialized');
  });

  it('decodes instructions and their CPIs by the IDLs for the web UI (issue 45, item 15)', async () => {
    const user = Keypair.generate();
    await h.emulator.faucet({ address: user.publicKey.toBase58(), lamports: 100_000_000 });
    const puppet = Keypair.generate();
    const initialize = initializePuppet(puppet.publicKey, user.publicKey);
    const pullStrings = new TransactionInstruction({
      programId: new PublicKey(PUPPET_MASTER),
      keys: [
        { pubkey: puppet.publicKey, isSigner: false, isWritable: true },
        { pubkey: new PublicKey(PUPPET), isSigner: false, isWritable: false },
      ],
      data: Buffer.concat([discriminator('puppet_master', 'pull_strings'), u64(42n)]),
    });
    const signature = await relay([initialize, pullStrings], [puppet, user]);
    expect(h.emulator.transactionJournal().find((entry) => entry.signature === signature)).toMatchObject({ status: 'processed', err: null });
    const body = await detailOf(signature);
    const puppetAccount = { name: 'puppet', address: puppet.publicKey.toBase58() };
    expect(body.idlInstructions).toEqual([
      {
        instruction: 1,
        inner: null,
        program: 'puppet',
        name: 'initialize',
        args: [],
        accounts: [
          puppetAccount,
          { name: 'user', address: user.publicKey.toBase58() },
          { name: 'system_program', address: SystemProgram.programId.toBase58() },
        ],
      },
      {
        instruction: 2,
        inner: null,
        program: 'puppet_master',
        name: 'pull_strings',
        args: [{ name: 'data', type: 'u64', value: '42' }],
        accounts: [puppetAccount, { name: 'puppet_program', address: PUPPET }],
      },
      // The CPI puppet_master made: puppet's set_data, with the value it passed on (bankrun records no inner instructions).
      ...(h.emulator.config.engine === 'bankrun'
        ? []
        : [{ instruction: 2, inner: 1, program: 'puppet', name: 'set_data', args: [{ name: 'data', type: 'u64', value: '42' }], accounts: [puppetAccount] }]),
    ]);
    // Data the IDL does not describe (set_data's u64 cut short) is not decoded: Anchor's coder would show a value never sent.
    const short = new TransactionInstruction({
      programId: new PublicKey(PUPPET),
      keys: [{ pubkey: puppet.publicKey, isSigner: false, isWritable: true }],
      data: Buffer.concat([discriminator('puppet', 'set_data'), u64(7n).subarray(0, 3)]),
    });
    const failed = await relay([short], []);
    const detail = await detailOf(failed);
    expect(detail.idlInstructions).toEqual([]);
    expect(detail.row.error).toBe('instruction 1 (puppet): InstructionDidNotDeserialize');
  });
});

describe("Kora and the app's own programs (issue 45, item 17)", () => {
  const DOCS_CONFIG = fileURLToPath(new URL('../docs/kora-app-programs.toml', import.meta.url));
  /** puppet's initialize, paid by a funded user, with Kora's signer as the fee payer (a call that simulates clean). */
  const signPuppetCall = async (emulator: RelayEmulator) => {
    const call = koraCaller(emulator.config.koraUrl);
    const { blockhash } = (await call('getBlockhash')).result as { blockhash: string };
    const [user, puppet] = [Keypair.generate(), Keypair.generate()];
    await emulator.faucet({ address: user.publicKey.toBase58(), lamports: 100_000_000 });
    const initialize = initializePuppet(puppet.publicKey, user.publicKey);
    return call('signTransaction', { transaction: build({ instructions: [initialize], blockhash, signers: [puppet, user] }) });
  };

  it("warns at start that Kora's default config refuses them, as Kora then does", async () => {
    const emulator = await createRelayEmulator({ anchor: WORKSPACE });
    try {
      expect(emulator.warnings).toContainEqual(
        `Kora's allowed_programs leaves out puppet (${PUPPET}), puppet_master (${PUPPET_MASTER}): Kora refuses a transaction that calls them ` +
          '(the relay API sponsors it); list them under [validation] allowed_programs ' +
          "in a --kora-config (relay-emulator's docs/kora-app-programs.toml is an example)",
      );
      expect((await signPuppetCall(emulator)).error?.message).toContain(`Program ${PUPPET} is not in the allowed list`);
    } finally {
      await emulator.close();
    }
  });

  it('takes the example kora.toml in docs/: no warning, and Kora signs a call to them', async () => {
    const emulator = await createRelayEmulator({ anchor: WORKSPACE, kora: { config: DOCS_CONFIG } });
    try {
      expect(emulator.warnings.filter((warning) => warning.includes('Kora'))).toEqual([]);
      const signed = await signPuppetCall(emulator);
      expect(signed.error).toBeUndefined();
      expect(signed.result).toMatchObject({ signer_pubkey: emulator.config.feePayer });
    } finally {
      await emulator.close();
    }
  });
});

describe('an IDL built for another program (issue 45, item 14)', () => {
  it('is taken, with a warning that names both addresses', async () => {
    const wrong = `${WORKSPACE}/target/idl/puppet_master.json`;
    const emulator = await createRelayEmulator({ programs: [{ programId: PUPPET, path: `${WORKSPACE}/target/deploy/puppet.so`, idl: wrong }] });
    try {
      expect(emulator.warnings).toContainEqual(
        `${wrong}: it was built for ${PUPPET_MASTER} (its address), not ${PUPPET}; ` +
          "the names it gives this program (puppet_master, its instructions and errors) may be another program's",
      );
      // The right one: no such warning.
      const right = await createRelayEmulator({
        programs: [{ programId: PUPPET, path: `${WORKSPACE}/target/deploy/puppet.so`, idl: `${WORKSPACE}/target/idl/puppet.json` }],
      });
      expect(right.warnings.filter((warning) => warning.includes('it was built for'))).toEqual([]);
      await right.close();
    } finally {
      await emulator.close();
    }
  });
});
