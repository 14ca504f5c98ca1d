/**
 * Issue 52: what Anchor 1.1 reads from a workspace beyond 0.30's: the target folder as `cargo
 * metadata` names it (else CARGO_TARGET_DIR, else target/), and `[[test.validator.mints|
 * token_accounts|fund_accounts]]`, made as Anchor 1.1 makes them for solana-test-validator and
 * Surfpool (otter-sec/anchor v1.1.2 cli/src/lib.rs, `materialize_validator_accounts`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey } from '@solana/web3.js';
import { rpcAt } from './support/json-rpc.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { readAnchorWorkspace } from '../src/domain/fixtures/anchor-workspace.ts';
import { cargoTargetDirectory } from '../src/domain/fixtures/cargo-target.ts';
import { createRelayEmulator } from '../src/index.ts';

const WORKSPACE = fileURLToPath(new URL('./real-clients/anchor/workspace/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-1x-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;

/** The puppet workspace, with `extra` appended to its Anchor.toml. */
function workspace(extra: string): string {
  made += 1;
  const dir = join(root, `ws-${made}`);
  cpSync(WORKSPACE, dir, { recursive: true });
  writeFileSync(join(dir, 'Anchor.toml'), `${readFileSync(join(WORKSPACE, 'Anchor.toml'), 'utf8')}\n${extra}`);
  return dir;
}

describe('Anchor 1.1’s generated accounts', () => {
  it('makes mints, token accounts and funded accounts as Anchor does, a "new" address with its keypair written beside them', async () => {
    const authority = Keypair.generate().publicKey.toBase58();
    const owner = Keypair.generate().publicKey.toBase58();
    const funded = Keypair.generate().publicKey.toBase58();
    const dir = workspace(
      [
        '[[test.validator.mints]]',
        'address = "new"',
        'decimals = 6',
        'supply = 1000000',
        `mint_authority = "${authority}"`,
        '',
        '[[test.validator.token_accounts]]',
        'mint = "new"',
        `owner = "${owner}"`,
        'amount = 250',
        '',
        '[[test.validator.fund_accounts]]',
        `address = "${funded}"`,
        '',
        '[[test.validator.fund_accounts]]',
        'address = "new"',
        'lamports = 42',
      ].join('\n'),
    );
    const { generated } = readAnchorWorkspace(dir);
    expect(generated.map((dump) => [dump.account.owner.toBase58(), dump.account.lamports, dump.account.data.length])).toEqual([
      ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 1_461_600n, 82],
      ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 2_039_280n, 165],
      ['11111111111111111111111111111111', 1_000_000_000n, 0],
      ['11111111111111111111111111111111', 42n, 0],
    ]);
    const [mint] = generated;
    expect(generated.every((dump) => dump.account.rentEpoch === 2n ** 64n - 1n)).toBe(true);
    // The new mint's keypair and the new fund account's, mode 0600, named as Anchor names them.
    const files = readdirSync(join(dir, '.anchor/generated_accounts')).sort();
    expect(files).toEqual([`${mint!.address.toBase58()}.mint.json`, `${generated[3]!.address.toBase58()}.keypair.json`].sort());
    expect(statSync(join(dir, '.anchor/generated_accounts', files[0]!)).mode & 0o777).toBe(0o600);

    // Served as the mint and token account they are; each start makes its "new" accounts afresh, as each anchor test run does.
    const emulator = await createRelayEmulator({ anchor: dir });
    try {
      const mints = readdirSync(join(dir, '.anchor/generated_accounts')).filter((name) => name.endsWith('.mint.json'));
      expect(mints).toHaveLength(2);
      const served = new PublicKey(mints.find((name) => !name.startsWith(mint!.address.toBase58()))!.split('.')[0]!);
      const rpc = (method: string, params: unknown[]) => rpcAt(emulator.config.rpcUrl)(method, params);
      const parsedMint = (await rpc('getAccountInfo', [served.toBase58(), { encoding: 'jsonParsed' }])).value.data.parsed.info;
      expect(parsedMint).toMatchObject({ decimals: 6, supply: '1000000', mintAuthority: authority, isInitialized: true, freezeAuthority: null });
      const owned = (await rpc('getTokenAccountsByOwner', [owner, { mint: served.toBase58() }, { encoding: 'jsonParsed' }])).value;
      expect(owned.map((entry: any) => entry.account.data.parsed.info.tokenAmount)).toEqual([expect.objectContaining({ amount: '250', decimals: 6 })]);
      expect((await rpc('getBalance', [funded])).value).toBe(1_000_000_000);
    } finally {
      await emulator.close();
    }
  });

  it('refuses in Anchor’s words: a pubkey twice, a mint nothing loads, mint = "new" with no mints', () => {
    const address = Keypair.generate().publicKey.toBase58();
    const twice = workspace(`[[test.validator.mints]]\naddress = "${address}"\ndecimals = 0\n\n[[test.validator.fund_accounts]]\naddress = "${address}"\n`);
    expect(() => readAnchorWorkspace(twice)).toThrow(
      `Duplicate pubkey ${address} across [test.validator] sections (collision detected in \`fund_accounts\`). ` +
        'Each generated account must have a unique address.',
    );
    const mint = Keypair.generate().publicKey.toBase58();
    const unknown = workspace(`[[test.validator.token_accounts]]\nmint = "${mint}"\nowner = "${address}"\namount = 1\n`);
    expect(() => readAnchorWorkspace(unknown)).toThrow(`token_account mint ${mint} is not loaded by the validator.`);
    const none = workspace(`[[test.validator.token_accounts]]\nmint = "new"\nowner = "${address}"\namount = 1\n`);
    expect(() => readAnchorWorkspace(none)).toThrow('token_account specifies `mint = "new"` but no [[test.validator.mints]] entries are configured');
    // A mint an account of Anchor.toml loads is one a token account may name.
    const loaded = workspace(`[[test.validator.token_accounts]]\nmint = "2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR"\nowner = "${address}"\namount = 1\n`);
    expect(readAnchorWorkspace(loaded).generated).toHaveLength(1);
  });

  it('writes a new keypair nowhere but the workspace: a .anchor that is a link is refused in one line', () => {
    const dir = workspace('[[test.validator.mints]]\naddress = "new"\ndecimals = 0\n');
    const elsewhere = join(root, `elsewhere-${made}`);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(dir, '.anchor'));
    expect(() => readAnchorWorkspace(dir)).toThrow(/\.anchor.*link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('writes nothing when only read for its wallet (exec’s ANCHOR_WALLET)', () => {
    const dir = workspace('[[test.validator.mints]]\naddress = "new"\ndecimals = 0\n');
    expect(readAnchorWorkspace(dir, { generate: false }).generated).toEqual([]);
    expect(existsSync(join(dir, '.anchor'))).toBe(false);
  });
});

describe('the target folder', () => {
  it('is cargo metadata’s target_directory (cargo’s config included), else CARGO_TARGET_DIR, else target/', () => {
    const crate = join(root, 'crate');
    mkdirSync(join(crate, 'src'), { recursive: true });
    mkdirSync(join(crate, '.cargo'));
    writeFileSync(join(crate, 'Cargo.toml'), '[package]\nname = "crate"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(crate, 'src/lib.rs'), '');
    writeFileSync(join(crate, '.cargo/config.toml'), '[build]\ntarget-dir = "out"\n');
    const { CARGO_TARGET_DIR: _unset, ...env } = process.env;
    const cargo = cargoTargetDirectory(crate, env);
    // Where cargo is not installed the fallback stands: this machine's tests run with it when it is.
    const hasCargo = spawnSync('cargo', ['--version']).status === 0;
    expect(cargo).toBe(hasCargo ? join(crate, 'out') : join(crate, 'target'));
    const bare = join(root, 'bare');
    mkdirSync(bare);
    expect(cargoTargetDirectory(bare, { ...process.env, CARGO_TARGET_DIR: 'build/t' })).toBe(join(bare, 'build/t'));
    expect(cargoTargetDirectory(bare, env)).toBe(join(bare, 'target'));
  });

  it('runs none of the workspace’s code: a rust-toolchain.toml naming a program of its own is not run', () => {
    const hostile = join(root, 'hostile');
    mkdirSync(join(hostile, 'src'), { recursive: true });
    mkdirSync(join(hostile, 'tc/bin'), { recursive: true });
    writeFileSync(join(hostile, 'Cargo.toml'), '[package]\nname = "hostile"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(hostile, 'src/lib.rs'), '');
    writeFileSync(join(hostile, 'rust-toolchain.toml'), `[toolchain]\npath = "${join(hostile, 'tc')}"\n`);
    for (const tool of ['cargo', 'rustc']) writeFileSync(join(hostile, 'tc/bin', tool), `#!/bin/sh\ntouch ${join(hostile, 'RAN')}\nexit 1\n`, { mode: 0o755 });
    cargoTargetDirectory(hostile);
    expect(existsSync(join(hostile, 'RAN'))).toBe(false);
  });

  it('is where the workspace’s programs and IDLs are read from', () => {
    const dir = workspace('');
    const target = join(root, 'elsewhere');
    cpSync(join(dir, 'target'), target, { recursive: true });
    rmSync(join(dir, 'target'), { recursive: true });
    rmSync(join(dir, 'Cargo.toml'));
    const read = readAnchorWorkspace(dir, { env: { ...process.env, CARGO_TARGET_DIR: target } });
    expect(read.programs.map((program) => program.path)).toEqual([join(target, 'deploy/puppet.so'), join(target, 'deploy/puppet_master.so')]);
    expect(read.programs.map((program) => program.idl)).toEqual([join(target, 'idl/puppet.json'), join(target, 'idl/puppet_master.json')]);
    expect(new PublicKey(read.programs[0]!.programId as string).toBase58()).toBe('Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS');
  });
});

describe('Test.toml suites', () => {
  it('read each file once, however often extends names it (a fan-out of 6^8 is 9 reads), and refuse past 64 files', () => {
    const dir = workspace('');
    const address = Keypair.generate().publicKey.toBase58();
    writeFileSync(
      join(dir, 'acct.json'),
      JSON.stringify({
        pubkey: address,
        account: { lamports: 5, data: ['', 'base64'], owner: '11111111111111111111111111111111', executable: false, rentEpoch: 0 },
      }),
    );
    for (let level = 0; level < 8; level += 1)
      writeFileSync(
        join(dir, `L${level}.toml`),
        `extends = [${Array(6)
          .fill(`"L${level + 1}.toml"`)
          .join(', ')}]\n`,
      );
    writeFileSync(join(dir, 'L8.toml'), `[[test.validator.account]]\naddress = "${address}"\nfilename = "acct.json"\n`);
    const read = readAnchorWorkspace(dir, { testConfigs: [join(dir, 'L0.toml')] });
    expect(read.accounts).toEqual([{ address, path: join(dir, 'acct.json') }]);
    // Wide instead of deep: 70 files named by one.
    for (let at = 0; at < 70; at += 1) writeFileSync(join(dir, `W${at}.toml`), '');
    writeFileSync(join(dir, 'wide.toml'), `extends = [${Array.from({ length: 70 }, (_, at) => `"W${at}.toml"`).join(', ')}]\n`);
    expect(() => readAnchorWorkspace(dir, { testConfigs: [join(dir, 'wide.toml')] })).toThrow(/the test configs and their extends name more than 64 files/);
  });
});
