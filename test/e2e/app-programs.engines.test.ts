/**
 * The app's own programs and account dumps through their life (issue 32): deployed and replaced
 * while running, kept by reset, snapshots, export/import and a restart on a state file, and every
 * form of the Solana CLI's dumps; each bad input refused at start in one line. The programs are
 * real ones (Light Protocol's, from the npm package @lightprotocol/zk-compression-cli, installed by
 * test/real-clients/light/); the dumps are written here in the CLI's format.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { encodeMint, encodeTokenAccount } from '../../src/domain/ledger/token-accounts.ts';
import { runCli, startCli } from '../support/cli-process.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { installJudge } from '../support/judge-install.ts';
import { ALICE, build, FEE_PAYER } from '../support/transactions.ts';

const LIGHT = fileURLToPath(new URL('../real-clients/light/', import.meta.url));
const ENGINE = process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm';
const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
/** Mainnet's USDC mint: a dump of it is what an app's tests load. */
const MAINNET_USDC = new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');

let bin: string;
let dir: string;

beforeAll(async () => {
  bin = join(await installJudge(LIGHT), 'node_modules/@lightprotocol/zk-compression-cli/bin');
  dir = mkdtempSync(join(tmpdir(), 'relay-emulator-app-programs-'));
}, 6 * 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const elf = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(join(bin, name)));

/** A Solana CLI dump (`solana account ADDRESS --output json`) of `account`, its data in `encoding`. */
function dump(address: PublicKey, account: { lamports: number; owner: PublicKey; data: Uint8Array }, encoding: 'base64' | 'base58' | 'legacy' | 'base64+zstd') {
  const data =
    encoding === 'base64'
      ? [Buffer.from(account.data).toString('base64'), 'base64']
      : encoding === 'base58'
        ? [bs58.encode(account.data), 'base58']
        : encoding === 'legacy'
          ? bs58.encode(account.data)
          : [Buffer.from(zstdRawFrame(account.data)).toString('base64'), 'base64+zstd'];
  return {
    pubkey: address.toBase58(),
    account: {
      lamports: account.lamports,
      data,
      owner: account.owner.toBase58(),
      executable: false,
      // The CLI writes u64::MAX for a rent-exempt account: put in as digits by writeJson (a JS number would round it).
      rentEpoch: 'U64_MAX',
      space: account.data.length,
    },
  };
}

/** A zstd frame of raw blocks (RFC 8878, 3.1.1): what a zstd decoder must read, without a compressor. */
function zstdRawFrame(data: Uint8Array): Uint8Array {
  const header = [0x28, 0xb5, 0x2f, 0xfd, 0x20, data.length]; // magic, single segment, 1-byte content size
  expect(data.length).toBeLessThan(256);
  const block = (1 | (data.length << 3)) >>> 0; // last block, raw, its size
  return new Uint8Array([...header, block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff, ...data]);
}

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2).replace('"U64_MAX"', '18446744073709551615'));
  return path;
}

async function call(emulator: RelayEmulator, program: PublicKey, blockhash: string) {
  const ix = new TransactionInstruction({
    programId: program,
    keys: [{ pubkey: ALICE.publicKey, isSigner: true, isWritable: false }],
    data: Buffer.from(blockhash),
  });
  const response = await emulator.fetch(
    new Request(`${emulator.config.baseUrl}/Transaction/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': emulator.config.apiKey },
      body: JSON.stringify({ signedTransaction: build({ instructions: [ix], blockhash, signers: [ALICE] }) }),
    }),
  );
  const body = (await response.json()) as { signature: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  await emulator.settle();
  return emulator.transactionJournal().find((entry) => entry.signature === body.signature)!;
}

async function blockhashOf(emulator: RelayEmulator): Promise<string> {
  const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }));
  return ((await response.json()) as { Blockhash: string }).Blockhash;
}

describe('deploying and replacing a program while the emulator runs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  async function put(programId: string, body: Uint8Array<ArrayBuffer>, query = '', type = 'application/octet-stream') {
    // At the loopback origin, as an app's test sends it (MSW answers in process; the restart test below goes over real HTTP).
    const response = await fetch(`${h.emulator.loopbackOrigin}/__emulator/programs/${programId}${query}`, {
      method: 'PUT',
      headers: { 'content-type': type },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it.runIf(ENGINE === 'litesvm')(
    'deploys an ELF, calls it, replaces it with another, and the same call runs the new code; program data shows the new ELF and slot',
    async () => {
      const id = Keypair.generate().publicKey;
      const authority = Keypair.generate().publicKey;
      const first = await put(id.toBase58(), elf('spl_noop.so'), `?upgradeAuthority=${authority.toBase58()}`);
      expect(first).toMatchObject({
        status: 200,
        body: { programId: id.toBase58(), loader: 'upgradeable', upgradeAuthority: authority.toBase58(), origin: 'deployed', length: 19960 },
      });
      const ran = await call(h.emulator, id, await h.blockhash());
      expect(ran.status).toBe('processed');
      expect(ran.logs).toContain(`Program ${id.toBase58()} success`);

      await h.emulator.warp({ slots: 3 });
      const slot = h.emulator.clock().slot;
      // An 895 KB ELF: far past the 64 KiB body limit, sent with its Content-Length.
      const registry = elf('light_registry.so');
      const second = await put(id.toBase58(), registry);
      expect(second).toMatchObject({
        status: 200,
        body: { loader: 'upgradeable', upgradeAuthority: authority.toBase58(), deploySlot: slot, length: registry.length },
      });
      const replaced = await call(h.emulator, id, await h.blockhash());
      // Light's registry is an Anchor program that knows its own id: at another, it refuses.
      expect(replaced.status).toBe('failed');
      expect(replaced.logs.join('\n')).toContain('DeclaredProgramIdMismatch');

      const [programData] = PublicKey.findProgramAddressSync([id.toBuffer()], UPGRADEABLE_LOADER);
      const account = (await h.emulator.getAccount(programData))!;
      const view = Buffer.from(account.data);
      expect(view.readUInt32LE(0)).toBe(3);
      expect(view.readBigUInt64LE(4)).toBe(BigInt(slot));
      expect(new PublicKey(view.subarray(13, 45)).equals(authority)).toBe(true);
      expect(Buffer.from(view.subarray(45)).equals(Buffer.from(registry))).toBe(true);
      expect(h.emulator.programs().programs.find((program) => program.programId === id.toBase58())).toMatchObject({
        deploySlot: slot,
        origin: 'deployed',
      });
    },
  );

  it('refuses a deploy where it cannot be made, with one reason each, and changes nothing', async () => {
    const noop = elf('spl_noop.so');
    const refused = async (programId: string, body: Uint8Array<ArrayBuffer>, pattern: RegExp) => {
      const answer = await put(programId, body);
      expect(answer.status, programId).toBe(422);
      expect(answer.body).toMatchObject({ code: 'PROGRAM_REFUSED' });
      expect(answer.body.detail).toMatch(pattern);
    };
    if (ENGINE === 'bankrun') {
      await refused(Keypair.generate().publicKey.toBase58(), noop, /the bankrun engine loads programs at start only/);
      return;
    }
    await refused('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', noop, /SPL Token, which the emulator's runtime ships/);
    await refused('SysvarC1ock11111111111111111111111111111111', noop, /a builtin program or a sysvar/);
    await refused(h.emulator.config.feePayer, noop, /holds an account that is not a program loaded here/);
    await refused(Keypair.generate().publicKey.toBase58(), new Uint8Array(noop.subarray(0, 5000)), /the file is truncated/);
    await refused(Keypair.generate().publicKey.toBase58(), new TextEncoder().encode('not a program'), /shorter than an ELF header|not an ELF/);
    const json = await put(Keypair.generate().publicKey.toBase58(), noop, '', 'application/json');
    expect(json).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect((await h.emulator.getAccount(h.emulator.config.feePayer))!.executable).toBe(false);
  });
});

describe('programs and dumps through reset, snapshots, export and import', () => {
  const NOOP = new PublicKey('noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV');
  const owner = Keypair.generate().publicKey;
  const tokenAccount = getAssociatedTokenAddressSync(MAINNET_USDC, owner, true);
  let options: Parameters<typeof createRelayEmulator>[0];

  beforeAll(() => {
    const mint = encodeMint({ decimals: 6, supply: 5_000_000n, mintAuthority: Keypair.generate().publicKey });
    const token = encodeTokenAccount({ mint: MAINNET_USDC, owner, amount: 5_000_000n });
    const tokenProgram = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    const wallet = Keypair.generate().publicKey;
    writeJson('usdc-mint.json', dump(MAINNET_USDC, { lamports: 1_461_600, owner: tokenProgram, data: mint }, 'base64'));
    writeJson('usdc-account.json', dump(tokenAccount, { lamports: 2_039_280, owner: tokenProgram, data: token }, 'base64+zstd'));
    writeJson(
      'wallet-base58.json',
      dump(wallet, { lamports: 7_000_000, owner: new PublicKey('11111111111111111111111111111111'), data: new Uint8Array([1, 2, 3]) }, 'base58'),
    );
    const legacy = Keypair.generate().publicKey;
    const legacyFile = writeJson(
      'legacy.json',
      dump(legacy, { lamports: 8_000_000, owner: new PublicKey('11111111111111111111111111111111'), data: new Uint8Array([4, 5]) }, 'legacy'),
    );
    options = {
      programs: [{ programId: NOOP.toBase58(), path: join(bin, 'spl_noop.so'), upgradeAuthority: Keypair.generate().publicKey.toBase58() }],
      accounts: [
        { path: join(dir, 'usdc-mint.json') },
        { path: join(dir, 'usdc-account.json') },
        { address: Keypair.generate().publicKey.toBase58(), path: legacyFile },
      ],
      accountDirs: [],
    };
    writeFileSync(join(dir, 'wallet-only.json'), readFileSync(join(dir, 'wallet-base58.json')));
  });

  it('reads every form of the CLI’s dumps, and a dumped mint and token account serve the balance, the owner’s token accounts and jsonParsed', async () => {
    const h = await startHarness(options);
    try {
      const rpc = async (method: string, params: unknown[]) =>
        (
          (await (
            await fetch(h.emulator.config.rpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
            })
          ).json()) as { result: any }
        ).result;
      const mint = await rpc('getAccountInfo', [MAINNET_USDC.toBase58(), { encoding: 'jsonParsed' }]);
      expect(mint.value.data.parsed).toMatchObject({ type: 'mint', info: { decimals: 6, supply: '5000000', isInitialized: true } });
      const byOwner = await rpc('getTokenAccountsByOwner', [owner.toBase58(), { mint: MAINNET_USDC.toBase58() }, { encoding: 'jsonParsed' }]);
      expect(byOwner.value).toHaveLength(1);
      expect(byOwner.value[0]).toMatchObject({
        pubkey: tokenAccount.toBase58(),
        account: { data: { parsed: { info: { tokenAmount: { amount: '5000000', decimals: 6 } } } } },
      });
      const balance = await h.call('POST', '/Account/balance', { body: { accountAddress: owner.toBase58(), mintAddress: MAINNET_USDC.toBase58() } });
      expect(balance.status, JSON.stringify(balance.body)).toBe(200);
      expect(balance.body.tokens).toEqual([
        { mint: MAINNET_USDC.toBase58(), tokenAccount: tokenAccount.toBase58(), amount: '5000000', decimals: 6, uiAmountString: '5' },
      ]);
      const legacy = options!.accounts![2]!;
      expect(await h.emulator.getAccount(legacy.address!)).toMatchObject({ lamports: 8_000_000n, data: new Uint8Array([4, 5]) });
      expect(h.emulator.programs().accounts.map(({ address }) => address)).toEqual([MAINNET_USDC.toBase58(), tokenAccount.toBase58(), legacy.address]);
    } finally {
      await h.close();
    }
  });

  it('keeps programs and dumps through reset and snapshot/restore, and an export imports into an emulator started with the same flags', async () => {
    const first = await createRelayEmulator(options);
    const second = await createRelayEmulator(options);
    try {
      // A write to a dumped account, a deployed program: reset puts the one back and keeps the other.
      await first.setAccount(MAINNET_USDC, { ...(await first.getAccount(MAINNET_USDC))!, lamports: 9_999_999n });
      const deployedId = Keypair.generate().publicKey;
      const canDeploy = ENGINE === 'litesvm';
      if (canDeploy) await first.deployProgram(deployedId, elf('spl_noop.so'));
      const snapshot = await first.snapshot();
      await first.reset();
      expect((await first.getAccount(MAINNET_USDC))!.lamports).toBe(1_461_600n);
      expect((await call(first, NOOP, await blockhashOf(first))).status).toBe('processed');
      if (canDeploy) expect((await call(first, deployedId, await blockhashOf(first))).status).toBe('processed');

      // The snapshot, restored here and imported into another emulator with the same flags.
      await first.restore(snapshot);
      expect((await first.getAccount(MAINNET_USDC))!.lamports).toBe(9_999_999n);
      const exported = await (await first.fetch(new Request(`${first.loopbackOrigin}/__emulator/state`))).text();
      const imported = await second.fetch(
        new Request(`${second.loopbackOrigin}/__emulator/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: exported }),
      );
      expect(imported.status, await imported.clone().text()).toBe(200);
      expect((await second.getAccount(MAINNET_USDC))!.lamports).toBe(9_999_999n);
      if (canDeploy) {
        expect(second.programs().programs.find((program) => program.programId === deployedId.toBase58())).toMatchObject({ origin: 'deployed', length: 19960 });
        expect((await call(second, deployedId, await blockhashOf(second))).status).toBe('processed');
      }
      expect((await call(second, NOOP, await blockhashOf(second))).status).toBe('processed');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('restarts on a state file with the same flags: loaded, deployed and dumped, all there', async () => {
    const stateFile = join(dir, 'state.json');
    const flags = [
      '--upgradeable-program',
      NOOP.toBase58(),
      join(bin, 'spl_noop.so'),
      'none',
      '--account',
      '-',
      join(dir, 'usdc-mint.json'),
      '--state-file',
      stateFile,
    ];
    const deployedId = Keypair.generate().publicKey;
    let cli = await startCli(flags);
    try {
      await fetch(`${cli.origin}/__emulator/accounts/${MAINNET_USDC.toBase58()}`).then((r) => r.json());
      if (ENGINE === 'litesvm') {
        const put = await fetch(`${cli.origin}/__emulator/programs/${deployedId.toBase58()}?loader=bpf-loader-2`, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          // 936,640 bytes over real HTTP, past the 64 KiB body limit: taken with its Content-Length.
          body: elf('light_registry.so'),
        });
        expect(put.status, await put.clone().text()).toBe(200);
      }
    } finally {
      expect(await cli.stop()).toBe(0);
    }
    cli = await startCli(flags);
    try {
      const listed = (await (await fetch(`${cli.origin}/__emulator/programs`)).json()) as {
        programs: { programId: string; loader: string; origin: string }[];
        accounts: unknown[];
      };
      expect(listed.programs).toContainEqual(expect.objectContaining({ programId: NOOP.toBase58(), loader: 'upgradeable', origin: 'start' }));
      if (ENGINE === 'litesvm')
        expect(listed.programs).toContainEqual(
          expect.objectContaining({ programId: deployedId.toBase58(), loader: 'bpf-loader-2', origin: 'deployed', length: 936_640 }),
        );
      expect(listed.accounts).toHaveLength(1);
      const account = (await (await fetch(`${cli.origin}/__emulator/accounts/${MAINNET_USDC.toBase58()}`)).json()) as { lamports: number };
      expect(account.lamports).toBe(1_461_600);
    } finally {
      await cli.stop();
    }
  });
});

describe('an Anchor workspace', () => {
  it('loads as anchor test loads it: its programs upgradeable with the wallet as authority, [[test.genesis]], [test.validator] accounts', async () => {
    const workspace = mkdtempSync(join(dir, 'anchor-'));
    const wallet = Keypair.generate();
    const program = Keypair.generate();
    const genesis = Keypair.generate().publicKey;
    const account = Keypair.generate().publicKey;
    mkdirSync(join(workspace, 'target/deploy'), { recursive: true });
    mkdirSync(join(workspace, 'tests/fixtures'), { recursive: true });
    writeFileSync(join(workspace, 'wallet.json'), JSON.stringify([...wallet.secretKey]));
    writeFileSync(join(workspace, 'target/deploy/my_program.so'), elf('spl_noop.so'));
    writeFileSync(join(workspace, 'target/deploy/my_program-keypair.json'), JSON.stringify([...program.secretKey]));
    // anchor build writes the program's IDL beside it; its name and errors come with the program.
    mkdirSync(join(workspace, 'target/idl'), { recursive: true });
    const idl = { address: program.publicKey.toBase58(), metadata: { name: 'my_program', version: '0.1.0', spec: '0.1.0' }, instructions: [] };
    writeFileSync(join(workspace, 'target/idl/my_program.json'), JSON.stringify({ ...idl, errors: [{ code: 6000, name: 'NotAllowed' }] }));
    writeFileSync(join(workspace, 'tests/fixtures/hook.so'), elf('spl_noop.so'));
    writeFileSync(
      join(workspace, 'tests/fixtures/config.json'),
      JSON.stringify(dump(account, { lamports: 3_000_000, owner: genesis, data: new Uint8Array([7, 7, 7]) }, 'base64')).replace(
        '"U64_MAX"',
        '18446744073709551615',
      ),
    );
    // As `anchor init` writes it, with the test sections an app adds.
    writeFileSync(
      join(workspace, 'Anchor.toml'),
      [
        '[toolchain]',
        '',
        '[features]',
        'resolution = true',
        'skip-lint = false',
        '',
        '[programs.localnet]',
        `my_program = "${program.publicKey.toBase58()}"`,
        '',
        '[provider]',
        'cluster = "Localnet"',
        'wallet = "wallet.json"',
        '',
        '[scripts]',
        'test = "yarn run ts-mocha -p ./tsconfig.json -t 1000000 tests/**/*.ts"',
        '',
        '[test]',
        'startup_wait = 5000',
        'upgradeable = true',
        '',
        '[[test.genesis]]',
        `address = "${genesis.toBase58()}"`,
        'program = "tests/fixtures/hook.so"',
        '',
        '[[test.validator.account]]',
        `address = "${account.toBase58()}"`,
        'filename = "tests/fixtures/config.json"',
        '',
      ].join('\n'),
    );
    const cli = await startCli([], { cwd: workspace });
    try {
      type Listed = { programs: Record<string, unknown>[]; accounts: { address: string }[] };
      const listed = (await (await fetch(`${cli.origin}/__emulator/programs`)).json()) as Listed;
      expect(listed.programs).toEqual([
        expect.objectContaining({
          programId: program.publicKey.toBase58(),
          loader: 'upgradeable',
          upgradeAuthority: wallet.publicKey.toBase58(),
          origin: 'start',
          idl: 'my_program',
        }),
        expect.objectContaining({ programId: genesis.toBase58(), loader: 'bpf-loader-2', upgradeAuthority: null, idl: null }),
      ]);
      expect(listed.accounts.map(({ address }) => address)).toEqual([account.toBase58()]);
      expect(cli.output()).toContain(`Program    ${program.publicKey.toBase58()} (upgradeable) ${join(workspace, 'target/deploy/my_program.so')}`);
    } finally {
      await cli.stop();
    }
    const off = await startCli(['--no-anchor'], { cwd: workspace });
    try {
      expect(((await (await fetch(`${off.origin}/__emulator/programs`)).json()) as { programs: unknown[] }).programs).toEqual([]);
    } finally {
      await off.stop();
    }
    // A program that was never built is named in one line.
    rmSync(join(workspace, 'target/deploy/my_program.so'));
    const refused = await createRelayEmulator({ anchor: workspace }).then(
      () => null,
      (error: Error) => error.message,
    );
    const so = join(workspace, 'target/deploy/my_program.so');
    expect(refused).toBe(`${join(workspace, 'Anchor.toml')}: program my_program: ${so} is missing (run anchor build)`);
    // An IDL that is not one is named, as a .so is.
    writeFileSync(so, elf('spl_noop.so'));
    writeFileSync(join(workspace, 'target/idl/my_program.json'), '{"address": "');
    const badIdl = await createRelayEmulator({ anchor: workspace }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(badIdl).toMatch(new RegExp(`^${join(workspace, 'target/idl/my_program.json')}: is not JSON \\(`));
    expect(badIdl).not.toContain('\n');
  }, 60_000);
});

describe('--watch', () => {
  it('reloads a program when its .so changes, says so, and keeps the running code when a build is broken', async () => {
    const folder = mkdtempSync(join(dir, 'watch-'));
    const so = join(folder, 'my_program.so');
    writeFileSync(so, elf('spl_noop.so'));
    const id = Keypair.generate().publicKey;
    const cli = await startCli(['--watch', '--upgradeable-program', id.toBase58(), so, 'none']);
    const send = async () => {
      const headers = { 'content-type': 'application/json', 'X-API-Key': cli.apiKey };
      const { Blockhash } = (await (await fetch(`${cli.baseUrl}/Transaction/blockhash`, { headers })).json()) as { Blockhash: string };
      const ix = new TransactionInstruction({
        programId: id,
        keys: [{ pubkey: ALICE.publicKey, isSigner: true, isWritable: false }],
        data: Buffer.from(Blockhash),
      });
      const body = JSON.stringify({ signedTransaction: build({ instructions: [ix], blockhash: Blockhash, signers: [ALICE] }) });
      const { signature } = (await (await fetch(`${cli.baseUrl}/Transaction/send`, { method: 'POST', headers, body })).json()) as { signature: string };
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const [entry] = (await (await fetch(`${cli.origin}/__emulator/journal/transactions?signature=${signature}`)).json()).transactions;
        if (entry && entry.status !== 'queued') return entry as { status: string; logs: string[] };
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`${signature} never ended`);
    };
    try {
      if (ENGINE === 'bankrun') {
        await cli.waitForOutput(/--watch: the bankrun engine loads programs at start only; changed builds are not reloaded/);
        return;
      }
      await cli.waitForOutput(new RegExp(`watching 1 program\\(s\\) for new builds: ${so}`));
      expect((await send()).status).toBe('processed');
      // A build replaces the file: written beside it, then renamed over it.
      writeFileSync(`${so}.tmp`, elf('light_registry.so'));
      renameSync(`${so}.tmp`, so);
      await cli.waitForOutput(new RegExp(`reloaded ${id.toBase58()} from ${so} \\(936640 bytes, sha256 [0-9a-f]{16}…, slot \\d+\\)`));
      const replaced = await send();
      expect(replaced.status).toBe('failed');
      expect(replaced.logs.join('\n')).toContain('DeclaredProgramIdMismatch');
      // A build cut short is refused; the program keeps the code it has.
      writeFileSync(so, elf('spl_noop.so').subarray(0, 5000));
      await cli.waitForOutput(new RegExp(`--watch: ${so}: Cannot deploy ${id.toBase58()}: it is not a Solana program: .*truncated.* keeps its code`));
      expect((await send()).logs.join('\n')).toContain('DeclaredProgramIdMismatch');
    } finally {
      await cli.stop();
    }
  }, 60_000);

  it('takes an IDL again when anchor build rewrites it, and warns of one built for another program (issue 45, item 14)', async () => {
    const workspace = mkdtempSync(join(dir, 'watch-idl-'));
    cpSync(fileURLToPath(new URL('../real-clients/anchor/workspace', import.meta.url)), workspace, { recursive: true });
    const puppet = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';
    const idlFile = join(workspace, 'target/idl/puppet.json');
    const cli = await startCli(['--watch'], { cwd: workspace });
    const idlOf = async () =>
      ((await (await fetch(`${cli.origin}/__emulator/programs`)).json()) as { programs: { programId: string; idl: string | null }[] }).programs.find(
        (program) => program.programId === puppet,
      )?.idl;
    try {
      await cli.waitForOutput(/watching 2 IDL\(s\)/);
      expect(await idlOf()).toBe('puppet');
      // The wrong file copied over it (puppet_master's IDL as puppet.json): taken, and said to be another program's.
      writeFileSync(idlFile, readFileSync(join(workspace, 'target/idl/puppet_master.json')));
      await cli.waitForOutput(new RegExp(`reloaded the IDL of ${puppet} from ${idlFile} \\(puppet_master\\)`));
      await cli.waitForOutput(new RegExp(`${idlFile}: it was built for HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L \\(its address\\), not ${puppet}`));
      expect(await idlOf()).toBe('puppet_master');
      // A rewrite cut short is not JSON: refused, and the IDL stays.
      writeFileSync(idlFile, '{"address": "Fg6P');
      await cli.waitForOutput(new RegExp(`--watch: .*${idlFile}: is not JSON .*; ${puppet} keeps its IDL`));
      expect(await idlOf()).toBe('puppet_master');
    } finally {
      await cli.stop();
    }
  }, 60_000);
});

describe('export --format solana-accounts', () => {
  it('writes every account as the Solana CLI dumps it, and --account-dir loads them into another emulator as they were', async () => {
    const out = mkdtempSync(join(dir, 'export-'));
    const NOOP = new PublicKey('noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV');
    const first = await startCli(['--upgradeable-program', NOOP.toBase58(), join(bin, 'spl_noop.so'), 'none', '--account', '-', join(dir, 'usdc-mint.json')]);
    let exported: string[];
    try {
      // A state made here: a relayed call (the fee payer pays its fee) and the faucet's SOL to Alice.
      await fetch(`${first.origin}/__emulator/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: ALICE.publicKey.toBase58(), lamports: 123_456_789 }),
      });
      const ran = await runCli(['export', '--url', first.origin, '--format', 'solana-accounts', '--out', out]);
      exported = (await import('node:fs')).readdirSync(out).map((name) => name.replace(/\.json$/, ''));
      const said = `exported ${exported.length} accounts to ${out}, one Solana CLI dump each (load them with --account-dir ${out})\n`;
      expect(ran).toMatchObject({ code: 0, stderr: said });
      const [programData] = PublicKey.findProgramAddressSync([NOOP.toBuffer()], UPGRADEABLE_LOADER);
      const expected = [NOOP, programData, MAINNET_USDC, ALICE.publicKey, FEE_PAYER].map((key) => key.toBase58());
      expect(exported).toEqual(expect.arrayContaining(expected));
      expect(exported).not.toContain('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
      // Each file is what `solana account --output json` writes (the faucet's lamports, past 2^53, exact).
      const faucet = JSON.parse(readFileSync(new URL('../../fixtures/relay.json', import.meta.url), 'utf8')).faucet.publicKey as string;
      expect(readFileSync(join(out, `${faucet}.json`), 'utf8')).toMatch(/"lamports": \d{18},/);
      // A rent epoch of u64::MAX as the CLI writes it, all twenty digits (JSON.parse would round it past u64).
      expect(readFileSync(join(out, `${MAINNET_USDC.toBase58()}.json`), 'utf8')).toContain('"rentEpoch": 18446744073709551615,');
      for (const address of exported) {
        const file = JSON.parse(readFileSync(join(out, `${address}.json`), 'utf8'));
        expect(Object.keys(file.account).sort()).toEqual(['data', 'executable', 'lamports', 'owner', 'rentEpoch', 'space']);
      }
    } finally {
      await first.stop();
    }
    // Back: a second emulator from the dumps alone (a validator takes the same folder). Compared exactly:
    // the listing writes exact integers, where the one-account control rounds past 2^53.
    const second = await startCli(['--account-dir', out]);
    try {
      const text = await (await fetch(`${second.origin}/__emulator/accounts`)).text();
      const lamportsBack = new Map([...text.matchAll(/"pubkey":"(\w+)","account":\{"lamports":(\d+)/g)].map(([, pubkey, lamports]) => [pubkey!, lamports!]));
      const back = new Map((JSON.parse(text) as { accounts: { pubkey: string; account: unknown }[] }).accounts.map((dump) => [dump.pubkey, dump.account]));
      for (const address of exported) {
        const fileText = readFileSync(join(out, `${address}.json`), 'utf8');
        const file = JSON.parse(fileText);
        expect(lamportsBack.get(address), address).toBe(/"lamports": (\d+)/.exec(fileText)![1]);
        expect(back.get(address), address).toMatchObject({ owner: file.account.owner, data: file.account.data, executable: file.account.executable });
      }
      expect(second.output()).toContain(`${FEE_PAYER.toBase58()} replaces the account the fixtures seed there`);
      // The program came back with its data: a call runs.
      const headers = { 'content-type': 'application/json', 'X-API-Key': second.apiKey };
      const { Blockhash } = (await (await fetch(`${second.baseUrl}/Transaction/blockhash`, { headers })).json()) as { Blockhash: string };
      const keys = [{ pubkey: ALICE.publicKey, isSigner: true, isWritable: false }];
      const ix = new TransactionInstruction({ programId: NOOP, keys, data: Buffer.from('back') });
      const body = JSON.stringify({ signedTransaction: build({ instructions: [ix], blockhash: Blockhash, signers: [ALICE] }) });
      expect((await fetch(`${second.baseUrl}/Transaction/send`, { method: 'POST', headers, body })).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe('banks kept for the same programs', () => {
  it('serves the next emulator with the same programs from a closed one’s bank, as new, and never one with other code', async () => {
    const id = Keypair.generate().publicKey;
    const withNoop = { programs: [{ programId: id.toBase58(), path: join(bin, 'spl_noop.so') }], accounts: [{ path: join(dir, 'usdc-mint.json') }] };
    const first = await createRelayEmulator(withNoop);
    // What the first leaves behind: a dumped account written, a call made.
    await first.setAccount(MAINNET_USDC, { ...(await first.getAccount(MAINNET_USDC))!, lamports: 5_555_555n });
    expect((await call(first, id, await blockhashOf(first))).status).toBe('processed');
    await first.close();
    const second = await createRelayEmulator(withNoop);
    try {
      expect((await second.getAccount(MAINNET_USDC))!.lamports).toBe(1_461_600n);
      expect((await call(second, id, await blockhashOf(second))).status).toBe('processed');
    } finally {
      await second.close();
    }
    // Other code at the same address: its own bank, running its own code.
    const other = await createRelayEmulator({ programs: [{ programId: id.toBase58(), path: join(bin, 'light_registry.so') }] });
    try {
      expect((await call(other, id, await blockhashOf(other))).logs.join('\n')).toContain('DeclaredProgramIdMismatch');
    } finally {
      await other.close();
    }
  });
});

describe('programs allowed but not loaded', () => {
  it("warns at start, one line each, of Kora's allowed_programs and policy.extraPrograms that nothing on the ledger runs", async () => {
    const unknown = Keypair.generate().publicKey.toBase58();
    const NOOP = 'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV';
    const emulator = await createRelayEmulator({
      loopback: false,
      programs: [{ programId: NOOP, path: join(bin, 'spl_noop.so') }],
      policy: { extraPrograms: [NOOP, unknown] },
      // Kora's own test config: System, Token, Token-2022, ATA, lookup tables and compute budget, which
      // the runtime answers, and a transfer-hook example program, which nothing here loads.
      kora: { config: fileURLToPath(new URL('../real-clients/kora-sdk/kora-test.toml', import.meta.url)) },
    });
    try {
      expect(emulator.warnings).toEqual([
        "Kora's allowed_programs names Bcdikjss8HWzKEuj6gEQoFq9TCnGnk6v3kUnRU1gb6hA, which no builtin or loaded program answers: " +
          'load it with --bpf-program (option programs)',
        `policy.extraPrograms names ${unknown}, which no builtin or loaded program answers: load it with --bpf-program (option programs)`,
        // And the reverse (issue 45, item 17): the loaded program Kora's config leaves out.
        `Kora's allowed_programs leaves out ${NOOP}: Kora refuses a transaction that calls it (the relay API sponsors it); ` +
          "list it under [validation] allowed_programs in a --kora-config (relay-emulator's docs/kora-app-programs.toml is an example)",
      ]);
    } finally {
      await emulator.close();
    }
  });
});

describe('bad programs and dumps are refused at start, in one line, with nothing started', () => {
  it('names the file and the problem for each', async () => {
    const good = JSON.parse(readFileSync(join(bin, '../accounts/epoch_pda_34w7KcLBXabMkHuXE2fY368vFe6kP3v5EJn8nPvQ8SKn.json'), 'utf8'));
    const badBase64 = writeJson('bad-base64.json', { ...good, account: { ...good.account, data: ['no*base64!', 'base64'] } });
    const sysvar = writeJson('sysvar.json', { ...good, pubkey: 'SysvarRent111111111111111111111111111111111' });
    const parsed = writeJson('parsed.json', { ...good, account: { ...good.account, data: { program: 'spl-token', parsed: {} } } });
    const twice = writeJson('twice.json', good);
    writeFileSync(join(dir, 'truncated.so'), elf('spl_noop.so').subarray(0, 5000));
    const cases: [Parameters<typeof createRelayEmulator>[0], string, RegExp][] = [
      [
        { programs: [{ programId: Keypair.generate().publicKey.toBase58(), path: join(dir, 'truncated.so') }] },
        'PROGRAM_INVALID',
        /truncated\.so: its section headers end past its 5000 bytes: the file is truncated$/,
      ],
      [
        { programs: [{ programId: Keypair.generate().publicKey.toBase58(), path: join(dir, 'missing.so') }] },
        'PROGRAM_INVALID',
        /missing\.so: cannot be read \(ENOENT\)$/,
      ],
      [{ accounts: [{ path: badBase64 }] }, 'ACCOUNT_DUMP_INVALID', /bad-base64\.json: its "account\.data" is not valid base64$/],
      [{ accounts: [{ path: sysvar }] }, 'ACCOUNT_DUMP_INVALID', /sysvar\.json: SysvarRent1{33} is a builtin program or a sysvar of the runtime/],
      [{ accounts: [{ path: parsed }] }, 'ACCOUNT_DUMP_INVALID', /parsed\.json: .*a jsonParsed dump holds no bytes/],
      [
        { accounts: [{ path: join(bin, '../accounts/epoch_pda_34w7KcLBXabMkHuXE2fY368vFe6kP3v5EJn8nPvQ8SKn.json') }, { path: twice }] },
        'ACCOUNT_DUMP_INVALID',
        /twice\.json: 34w7K\w+ is named twice \(also by .*epoch_pda_/,
      ],
    ];
    for (const [options, code, message] of cases) {
      const refused = await createRelayEmulator(options).then(
        () => null,
        (error: unknown) => error as Error & { code: string },
      );
      expect(refused, String(message)).not.toBeNull();
      expect(refused!.code).toBe(code);
      expect(refused!.message).toMatch(message);
      expect(refused!.message).not.toContain('\n');
    }
  });

  it('answers the command line with that line on stderr, exit code 1 and no stack', async () => {
    const run = (args: string[]) => runCli(['start', '--port', '0', ...args]);
    const truncated = await run(['--bpf-program', Keypair.generate().publicKey.toBase58(), join(dir, 'truncated.so')]);
    expect(truncated).toMatchObject({
      code: 1,
      stderr: `relay-emulator: cannot start: ${join(dir, 'truncated.so')}: its section headers end past its 5000 bytes: the file is truncated\n`,
    });
    const noAuthority = await run(['--upgradeable-program', Keypair.generate().publicKey.toBase58(), join(bin, 'spl_noop.so')]);
    expect(noAuthority.code).toBe(2);
    expect(noAuthority.stderr).toBe(
      'relay-emulator start: --upgradeable-program takes ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none; UPGRADE_AUTHORITY|none is missing ' +
        '(relay-emulator start --help lists the options)\n',
    );
  });
});
