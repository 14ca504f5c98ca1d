/**
 * Issue 45, items 6 and 18: a deploy runs the engine's own load check (LiteSVM's ELF loader and
 * verifier) before it swaps the code, so a build the runtime cannot run is 422 PROGRAM_REFUSED and
 * the program there keeps running (it answered 200, then every call failed InvalidProgramForExecution);
 * deployProgram() answers what JSON carries (deploySlot a number, where a bigint made JSON.stringify throw).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { rpcAt } from './support/json-rpc.ts';
import { build } from './support/transactions.ts';

const PUPPET = fileURLToPath(new URL('./real-clients/anchor/workspace/target/deploy/puppet.so', import.meta.url));

describe('a deploy the runtime cannot load', () => {
  let emulator: RelayEmulator;
  // Anchor's programs check the id they were built for (DeclaredProgramIdMismatch otherwise).
  const id = new PublicKey('Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS');
  const good = readFileSync(PUPPET);
  beforeAll(async () => {
    emulator = await createRelayEmulator({ engine: 'litesvm' });
  });
  afterAll(() => emulator.close());

  const initialize = async () => {
    const puppet = Keypair.generate();
    const user = Keypair.generate();
    await emulator.faucet({ address: user.publicKey, lamports: 1_000_000_000 });
    const { value } = await rpcAt(emulator.config.rpcUrl)('getLatestBlockhash');
    const instruction = new TransactionInstruction({
      programId: id,
      keys: [
        { pubkey: puppet.publicKey, isSigner: true, isWritable: true },
        { pubkey: user.publicKey, isSigner: true, isWritable: true },
        { pubkey: new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
      ],
      data: Buffer.from([175, 175, 109, 31, 13, 152, 155, 237]),
    });
    const wire = build({ instructions: [instruction], blockhash: value.blockhash, signers: [user, puppet], feePayer: user.publicKey });
    const simulated = (await rpcAt(emulator.config.rpcUrl)('simulateTransaction', [wire, { encoding: 'base64' }])).value;
    return simulated.err;
  };

  it('deploys a program, and answers in what JSON carries', async () => {
    const deployed = await emulator.deployProgram(id, good);
    expect(typeof deployed.deploySlot).toBe('number');
    expect(() => JSON.stringify(deployed)).not.toThrow();
    expect(await initialize()).toBeNull();
  });

  it('refuses a randomized body, a header alone, and e_shentsize 0 with 422, and the program there keeps running', async () => {
    const randomized = Buffer.from(good);
    randomBytes(60_000 - 4096).copy(randomized, 4096);
    const noSections = Buffer.from(good);
    noSections.writeUInt16LE(0, 58);
    for (const [what, elf] of [
      ['bytes 4096-60000 randomized', randomized],
      ['64 bytes of header', good.subarray(0, 64)],
      ['e_shentsize 0', noSections],
    ] as const) {
      const response = await fetch(`${emulator.loopbackOrigin}/__emulator/programs/${id.toBase58()}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: elf,
      });
      expect(response.status, what).toBe(422);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe('PROGRAM_REFUSED');
      expect(problem.detail, what).toMatch(/(it is not a Solana program|the litesvm runtime cannot load it): /);
      expect(await initialize(), what).toBeNull();
    }
    await expect(emulator.deployProgram(id, randomized)).rejects.toThrow(/the litesvm runtime cannot load it: /);
    expect((await emulator.programs()).programs.find((program) => program.programId === id.toBase58())!.sha256).toBe(
      (await emulator.deployProgram(id, good)).sha256,
    );
  });
});

describe('a program at start the runtime cannot load', () => {
  it('is refused in one line naming its file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const broken = Buffer.from(readFileSync(PUPPET));
    randomBytes(60_000 - 4096).copy(broken, 4096);
    const path = join(mkdtempSync(join(tmpdir(), 'relay-emulator-broken-')), 'broken.so');
    writeFileSync(path, broken);
    const error = await createRelayEmulator({
      engine: 'litesvm',
      loopback: false,
      programs: [{ programId: Keypair.generate().publicKey.toBase58(), path }],
    }).then(
      () => null,
      (thrown: unknown) => thrown as Error & { code: string },
    );
    expect(error?.code).toBe('PROGRAM_INVALID');
    expect(error!.message).toMatch(new RegExp(`^${path}: the litesvm engine cannot load the program at \\w+: `));
  });
});
