/**
 * An app's own programs and mainnet accounts, judged with Light Protocol's real ones (issue 32):
 * `@lightprotocol/zk-compression-cli` 0.28.3 ships five programs (bin/*.so: spl_noop, the
 * Pinocchio light system program, the compressed token, account compression and registry programs)
 * and 39 Solana CLI account dumps (accounts/*.json), and its dist/utils/initTestEnv.js builds the
 * one list of flags it passes to solana-test-validator and to Surfpool. The emulator is started with
 * exactly that list, as a user would start it in their place; the instructions are built with
 * Light's own SDK, @lightprotocol/stateless.js 0.23.3, and sent to the relay as an app sends them.
 *
 * The packages come from npm at install time (test/real-clients/light/, its own lockfile), never
 * from this repository.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { type CliProcess, startCli } from '../support/cli-process.ts';
import { installJudge } from '../support/judge-install.ts';
import { ALICE } from '../support/transactions.ts';
import { type Rpc, rpcAt } from '../support/json-rpc.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/light/', import.meta.url));
const MINUTE = 60_000;
const LOADER_2 = 'BPFLoader2111111111111111111111111111111111';
const NOOP = 'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV';
const LIGHT_SYSTEM = 'SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7';
const ENGINE = process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm';
const COMPRESSION = 'compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq';
const GROUP_AUTHORITY = '24rt4RgeyjUCWGS2eF7L7gyNMuz6JWdqYpAvb1KRoHxs';
/**
 * account_compression's IDL, in Anchor's spec 0.1.0: a subset (two instructions, its two account
 * types, its whole error table) written from the program's source, programs/account-compression/src
 * at Lightprotocol/light-protocol 8ddf06ba (zk-compression-cli 0.28.1), because the repository
 * commits no IDL JSON for it and stateless.js's copy is an older version (RegisteredProgram has two
 * fields there, three in the program the CLI ships). The account discriminators it names match
 * Light's dumps byte for byte.
 */
const COMPRESSION_IDL = fileURLToPath(new URL('../real-clients/light/idl/account_compression.json', import.meta.url));

/** The judge's packages are loaded at run time, from their own install: untyped here. */
type Any = any;

/** The program and account flags of a list initTestEnv.js built (the rest names its own ports and ledger). */
function appFlags(args: string[]): string[] {
  return args.slice(args.indexOf('--bpf-program'));
}

describe('Light Protocol’s programs and accounts, loaded with the flags its CLI gives a validator', () => {
  let light: { web3: Any; stateless: Any; anchor: Any; args: string[]; programs: { id: string; path: string }[]; accountsDir: string };
  let emulator: CliProcess;
  let rpc: Rpc;

  beforeAll(async () => {
    const installed = await installJudge(JUDGE);
    const require = createRequire(join(installed, 'package.json'));
    const initTestEnv = require('@lightprotocol/zk-compression-cli/dist/utils/initTestEnv.js');
    const options = { rpcPort: 8899, gossipHost: '127.0.0.1', downloadBinaries: false, limitLedgerSize: 10_000 };
    const validator: string[] = await initTestEnv.getSolanaArgs(options);
    const surfpool: string[] = await initTestEnv.getSurfpoolArgs(options);
    // One list for both, as the issue says of Light's CLI: the emulator takes the same.
    expect(appFlags(surfpool)).toEqual(appFlags(validator));
    const args = appFlags(validator);
    const programs: { id: string; path: string }[] = [];
    for (let at = 0; at < args.length; at += 1) if (args[at] === '--bpf-program') programs.push({ id: args[at + 1]!, path: args[at + 2]! });
    light = {
      web3: require('@solana/web3.js'),
      stateless: require('@lightprotocol/stateless.js'),
      anchor: require('@coral-xyz/anchor'),
      args,
      programs,
      accountsDir: args[args.indexOf('--account-dir') + 1]!,
    };
    emulator = await startCli(args);
    rpc = rpcAt(emulator.rpcUrl);
  }, 6 * MINUTE);
  afterAll(async () => {
    await emulator?.stop();
  });

  it('starts with all five programs and every dump, says which of two dumps of one address it took, and serves them as a validator does', async () => {
    expect(light.programs.map(({ id }) => id).sort()).toEqual(
      [
        NOOP,
        LIGHT_SYSTEM,
        'cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m',
        'compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq',
        'Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX',
      ].sort(),
    );
    for (const { id, path } of light.programs) {
      expect(emulator.output()).toContain(`Program    ${id} (BPF Loader 2) ${path}`);
      const elf = readFileSync(path);
      const { value } = await rpc('getAccountInfo', [id, { encoding: 'base64' }]);
      expect(value.owner, id).toBe(LOADER_2);
      expect(value.executable, id).toBe(true);
      expect(value.lamports).toBe(await rpc('getMinimumBalanceForRentExemption', [elf.length]));
      expect(Buffer.from(value.data[0], 'base64').equals(elf), `${id} holds its .so`).toBe(true);
    }
    // 39 files name 36 addresses: the later file name wins, and the start says so.
    const files = (await import('node:fs')).readdirSync(light.accountsDir).sort();
    expect(files).toHaveLength(39);
    const winners = new Map<string, Any>();
    for (const file of files) {
      const dump = JSON.parse(readFileSync(join(light.accountsDir, file), 'utf8'));
      winners.set(dump.pubkey, dump.account);
    }
    expect(winners.size).toBe(36);
    expect(emulator.output()).toContain('Accounts   36 loaded from account dumps');
    expect(emulator.output()).toMatch(
      new RegExp(
        'cpi2cdhkH5roePvcudTgUL8ppEBfTay1desGh8G8QxK is in .*cpi_context_2_cpi2cdhk.*\\.json and .*cpi_context_cpi2cdhk.*\\.json; ' +
          '.*cpi_context_cpi2cdhk.*\\.json is loaded',
      ),
    );
    const addresses = [...winners.keys()];
    const { value: infos } = await rpc('getMultipleAccounts', [addresses, { encoding: 'base64' }]);
    infos.forEach((info: Any, index: number) => {
      const dump = winners.get(addresses[index]!);
      expect(info, addresses[index]).toMatchObject({ lamports: dump.lamports, owner: dump.owner, executable: dump.executable, space: dump.space });
      expect(info.data[0]).toBe(dump.data[0]);
    });
    // getProgramAccounts of a loaded program finds its dumped accounts, with filters.
    const registry = await rpc('getProgramAccounts', ['Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX', { encoding: 'base64', filters: [{ dataSize: 184 }] }]);
    expect(registry.map((entry: Any) => entry.pubkey)).toEqual(['34w7KcLBXabMkHuXE2fY368vFe6kP3v5EJn8nPvQ8SKn']);
  });

  /** Posts a transaction to the current interface's Transaction/send, as an app does. */
  async function relay(tx: Any): Promise<{ status: number; body: Any }> {
    const signedTransaction = Buffer.from(tx.serialize({ requireAllSignatures: false })).toString('base64');
    const response = await fetch(`${emulator.baseUrl}/Transaction/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': emulator.apiKey },
      body: JSON.stringify({ signedTransaction }),
    });
    return { status: response.status, body: await response.json() };
  }

  async function landed(signature: string): Promise<Any> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const tx = await rpc('getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }]);
      if (tx) return tx;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`${signature} never landed`);
  }

  async function transaction(instructions: Any[], signers: Any[]): Promise<Any> {
    const { web3 } = light;
    const { value } = await rpc('getLatestBlockhash');
    const tx = new web3.Transaction({ feePayer: new web3.PublicKey(emulator.ready.feePayer), recentBlockhash: value.blockhash });
    tx.add(...instructions);
    tx.partialSign(...signers);
    return tx;
  }

  const alice = () => light.web3.Keypair.fromSecretKey(ALICE.secretKey);

  it('relays a call to spl_noop with the relay as fee payer, and PubSub tells a logsSubscribe that mentions it', async () => {
    const { web3 } = light;
    // A logsSubscribe that mentions the program, as kit's logsNotifications sends it, answered before anything is sent.
    const socket = new WebSocket(String(emulator.ready.pubsubUrl));
    const messages: Any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await once(socket, 'open');
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logsSubscribe', params: [{ mentions: [NOOP] }, { commitment: 'confirmed' }] }));
    await expect.poll(() => messages.find((message) => message.id === 1)?.result, { timeout: 10_000 }).toEqual(expect.any(Number));
    const ix = new web3.TransactionInstruction({
      programId: new web3.PublicKey(NOOP),
      keys: [{ pubkey: alice().publicKey, isSigner: true, isWritable: false }],
      data: Buffer.from('an app event'),
    });
    const { status, body } = await relay(await transaction([ix], [alice()]));
    expect(status, JSON.stringify(body)).toBe(200);
    const landedTx = await landed(body.signature);
    expect(landedTx.meta.err).toBeNull();
    expect(landedTx.meta.logMessages).toEqual([
      `Program ${NOOP} invoke [1]`,
      expect.stringMatching(new RegExp(`^Program ${NOOP} consumed \\d+ of \\d+ compute units$`)),
      `Program ${NOOP} success`,
    ]);
    expect(landedTx.transaction.message.accountKeys[0]).toBe(emulator.ready.feePayer);
    expect(landedTx.meta.fee).toBe(10_000);
    try {
      const heard = () => messages.find((message) => message.method === 'logsNotification' && message.params.result.value.signature === body.signature);
      await expect.poll(heard, { timeout: 10_000 }).toBeDefined();
      expect(heard().params.result.value).toEqual({ signature: body.signature, err: null, logs: landedTx.meta.logMessages });
    } finally {
      socket.close();
    }
  });

  it('relays Light’s compress instruction, built by stateless.js, for the user’s own SOL, on a v1 and on a batched state tree', async () => {
    const { web3, stateless } = light;
    const user = alice();
    const airdrop = await rpc<string>('requestAirdrop', [user.publicKey.toBase58(), 2_000_000_000, { commitment: 'confirmed' }]);
    await landed(airdrop);
    const trees = stateless.localTestActiveStateTreeInfos();
    const solPool = stateless.LightSystemProgram.deriveCompressedSolPda().toBase58();
    for (const treeType of [1, 3]) {
      const tree = trees.find((info: Any) => info.treeType === treeType);
      // Everything the instruction can pay: the user, Light's SOL pool, and the tree and queue it appends to.
      const watched = [user.publicKey.toBase58(), solPool, tree.tree.toBase58(), tree.queue.toBase58()];
      const before = (await rpc('getMultipleAccounts', [watched, { encoding: 'base64' }])).value.map((info: Any) => info?.lamports ?? 0);
      const ix = await stateless.LightSystemProgram.compress({
        payer: user.publicKey,
        toAddress: user.publicKey,
        lamports: 100_000_000,
        outputStateTreeInfo: tree,
      });
      const budget = web3.ComputeBudgetProgram.setComputeUnitLimit({ units: 1_000_000 });
      const { status, body } = await relay(await transaction([budget, ix], [user]));
      expect(status, JSON.stringify(body)).toBe(200);
      const landedTx = await landed(body.signature);
      expect(landedTx.meta.err, landedTx.meta.logMessages.join('\n')).toBeNull();
      expect(landedTx.meta.logMessages).toContain(`Program ${LIGHT_SYSTEM} success`);
      const after = (await rpc('getMultipleAccounts', [watched, { encoding: 'base64' }])).value.map((info: Any) => info?.lamports ?? 0);
      const [userPaid, poolGained, treeGained, queueGained] = after.map((lamports: number, index: number) =>
        index === 0 ? before[0] - lamports : lamports - before[index],
      );
      // The pool holds what was compressed; Light's own fee (its rollover or network fee) goes to the
      // tree's accounts; the user pays both and nothing else: the relay paid the transaction fee.
      expect(poolGained).toBe(100_000_000);
      expect(userPaid).toBe(poolGained + treeGained + queueGained);
      expect(userPaid - 100_000_000).toBeLessThan(10_000);
      console.log(
        `compress on tree type ${treeType} (${tree.tree.toBase58()}): ${landedTx.meta.computeUnitsConsumed} CU, ` +
          `Light's fee ${userPaid - 100_000_000} lamports, on ${ENGINE}`,
      );
    }
  });

  it('weighs Light’s compress naming the relay as its payer: the loss beyond the fee within the cap is sponsored and recorded, past it refused', async () => {
    const { web3, stateless } = light;
    const feePayer = new web3.PublicKey(emulator.ready.feePayer);
    const tree = stateless.localTestActiveStateTreeInfos().find((info: Any) => info.treeType === 3);
    const drain = async (lamports: number) => {
      const ix = await stateless.LightSystemProgram.compress({ payer: feePayer, toAddress: alice().publicKey, lamports, outputStateTreeInfo: tree });
      const memo = new web3.TransactionInstruction({
        programId: new web3.PublicKey(NOOP),
        keys: [{ pubkey: alice().publicKey, isSigner: true, isWritable: false }],
        data: Buffer.from(`${lamports}`),
      });
      return relay(await transaction([ix, memo], [alice()]));
    };
    const over = await drain(1_000_000_000);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'FEE_PAYER_MISUSE', rule: 'F3' });
    if (ENGINE === 'bankrun') {
      expect(over.body.detail).toContain('the bankrun engine cannot show what a simulation takes from it');
      return;
    }
    const claimed = Number(over.body.detail.match(/losing (\d+) lamports beyond the fee, more than the 10000000 the relay sponsors/)?.[1]);
    expect(claimed).toBeGreaterThanOrEqual(1_000_000_000);
    const balance = async () => (await rpc('getBalance', [feePayer.toBase58(), { commitment: 'confirmed' }])).value as number;
    const before = await balance();
    const within = await drain(1_000_000);
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    const landedTx = await landed(within.body.signature);
    expect(landedTx.meta.err).toBeNull();
    // What the ledger shows the fee payer losing beyond the fee is what the relay recorded as sponsored.
    const lost = before - (await balance()) - landedTx.meta.fee;
    expect(lost).toBeGreaterThanOrEqual(1_000_000);
    const journal = await (await fetch(`${emulator.origin}/__emulator/journal/transactions`)).json();
    const entry = journal.transactions.find((candidate: Any) => candidate.signature === within.body.signature);
    expect(entry.sponsorExposure).toBe(lost);
    expect(entry.strictBreaks).toEqual([expect.objectContaining({ rule: 'F3', code: 'FEE_PAYER_MISUSE', account: feePayer.toBase58(), exposure: lost })]);
  });

  describe('in process, under the strict profile', () => {
    let strict: RelayEmulator;
    beforeAll(async () => {
      strict = await createRelayEmulator({
        policy: 'strict',
        programs: light.programs.map(({ id, path }) => ({ programId: id, path })),
        accountDirs: [light.accountsDir],
      });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses an app-program instruction that lists the fee payer (F3), and relays one that does not', async () => {
      const { web3, stateless } = light;
      const feePayer = new web3.PublicKey(strict.config.feePayer);
      const tree = stateless.localTestActiveStateTreeInfos().find((info: Any) => info.treeType === 3);
      const { value } = await rpcAt(strict.config.rpcUrl)('getLatestBlockhash');
      const send = async (instructions: Any[]) => {
        const tx = new web3.Transaction({ feePayer, recentBlockhash: value.blockhash }).add(...instructions);
        tx.partialSign(alice());
        const signedTransaction = Buffer.from(tx.serialize({ requireAllSignatures: false })).toString('base64');
        const response = await strict.fetch(
          new Request(`${strict.config.baseUrl}/Transaction/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'X-API-Key': strict.config.apiKey },
            body: JSON.stringify({ signedTransaction }),
          }),
        );
        return { status: response.status, body: (await response.json()) as Any };
      };
      const noop = new web3.TransactionInstruction({
        programId: new web3.PublicKey(NOOP),
        keys: [{ pubkey: alice().publicKey, isSigner: true, isWritable: false }],
        data: Buffer.from('x'),
      });
      const drain = await stateless.LightSystemProgram.compress({ payer: feePayer, toAddress: alice().publicKey, lamports: 1_000, outputStateTreeInfo: tree });
      const refused = await send([drain, noop]);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'FEE_PAYER_MISUSE', rule: 'F3' });
      expect(refused.body.detail).toContain(`the app's program ${LIGHT_SYSTEM}`);
      const relayed = await send([noop]);
      expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
      await strict.settle();
      expect(bs58.decode(relayed.body.signature)).toHaveLength(64);
      expect(strict.transactionJournal().find((entry) => entry.signature === relayed.body.signature)?.status).toBe('processed');
    });
  });

  describe('in process, with account_compression’s IDL, to an Anchor 0.32 client', () => {
    let withIdl: RelayEmulator;
    let program: Any;
    beforeAll(async () => {
      withIdl = await createRelayEmulator({
        programs: light.programs.map(({ id, path }) => ({ programId: id, path, ...(id === COMPRESSION ? { idl: COMPRESSION_IDL } : {}) })),
        accountDirs: [light.accountsDir],
      });
      const { anchor, web3 } = light;
      // As Anchor's docs set a client up: a Connection to the RPC URL, a wallet, the IDL.
      const provider = new anchor.AnchorProvider(new web3.Connection(withIdl.config.rpcUrl, 'confirmed'), new anchor.Wallet(alice()), {
        commitment: 'confirmed',
      });
      program = new anchor.Program(JSON.parse(readFileSync(COMPRESSION_IDL, 'utf8')), provider);
    });
    afterAll(async () => {
      await withIdl?.close();
    });

    it('fetches and lists the program’s accounts from Light’s dumps, decoded by the IDL', async () => {
      const { web3 } = light;
      const group = await program.account.groupAuthority.fetch(GROUP_AUTHORITY);
      const dump = JSON.parse(readFileSync(join(light.accountsDir, `group_pda_${GROUP_AUTHORITY}.json`), 'utf8'));
      const data = Buffer.from(dump.account.data[0], 'base64');
      expect(group.authority.toBase58()).toBe(new web3.PublicKey(data.subarray(8, 40)).toBase58());
      expect(group.seed.toBase58()).toBe(new web3.PublicKey(data.subarray(40, 72)).toBase58());
      // all() is getProgramAccounts with the account's discriminator as a memcmp filter.
      const registered = await program.account.registeredProgram.all();
      const byAddress = new Map(registered.map((entry: Any) => [entry.publicKey.toBase58(), entry.account]));
      expect([...byAddress.keys()].sort()).toEqual(['35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh', 'DumMsyvkaGJG4QnQ1BhTgvoRMXsgGxfpKDUCr22Xqu4w'].sort());
      expect((byAddress.get('35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh') as Any).registeredProgramId.toBase58()).toBe(LIGHT_SYSTEM);
      expect((byAddress.get('35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh') as Any).groupAuthorityPda.toBase58()).toBe(GROUP_AUTHORITY);
    });

    it('answers a call that breaks a constraint with the program’s error, which Anchor reads from the logs and the UI names from the IDL', async () => {
      const { web3 } = light;
      const newProgram = web3.Keypair.generate();
      const call = () =>
        program.methods.registerProgramToGroup().accountsStrict({
          authority: alice().publicKey,
          programToBeRegistered: newProgram.publicKey,
          registeredProgramPda: web3.PublicKey.findProgramAddressSync([newProgram.publicKey.toBuffer()], program.programId)[0],
          groupAuthorityPda: new web3.PublicKey(GROUP_AUTHORITY),
          systemProgram: web3.SystemProgram.programId,
        });
      await withIdl.faucet({ address: alice().publicKey });
      // Preflight: simulateTransaction's logs carry Anchor's error line, and Anchor's client turns it into an AnchorError.
      const refused = await call()
        .signers([newProgram])
        .rpc()
        .catch((error: Any) => error);
      expect(refused.error?.errorCode).toEqual({ code: 'InvalidAuthority', number: 6009 });
      expect(refused.program.toBase58()).toBe(COMPRESSION);
      // Sent without preflight, it lands failed; the web UI's relay list names the error from the IDL.
      const signature = await call()
        .signers([newProgram])
        .rpc({ skipPreflight: true })
        .catch((error: Any) => error.signature ?? error);
      await withIdl.settle();
      const response = await withIdl.fetch(new Request(`${new URL(withIdl.config.rpcUrl).origin}/__emulator/relays?wallet=${alice().publicKey.toBase58()}`));
      const { relays } = (await response.json()) as Any;
      const row = relays.find((candidate: Any) => candidate.errorRaw !== null);
      expect(row, JSON.stringify({ signature, relays })).toMatchObject({
        // The instruction by its IDL name too (issue 45, item 15).
        error: 'instruction 1 (account_compression register_program_to_group): InvalidAuthority',
        errorRaw: { InstructionError: [0, { Custom: 6009 }] },
      });
      const programs = (await (await withIdl.fetch(new Request(`${new URL(withIdl.config.rpcUrl).origin}/__emulator/programs`))).json()) as Any;
      expect(programs.programs.find((entry: Any) => entry.programId === COMPRESSION).idl).toBe('account_compression');
      expect(programs.programs.find((entry: Any) => entry.programId === NOOP).idl).toBeNull();
    });
  });
});
