/**
 * Issue 52, item 2: Surfpool's remaining cheatcodes that mean something offline, each called in
 * Surfpool's shape (positional params, camelCase fields, hex data; solana-foundation/surfpool
 * crates/core/src/rpc/surfnet_cheatcodes.rs and the Node SDK's kit/types/api.ts) and answered in
 * its shape: programs (authority, bytes, copies), IDLs by slot, profiles with the sponsor's
 * figures, local signatures, supply, the snapshot, streamed and offline accounts, and the gate.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { programDataAddress } from '../src/domain/ledger/program-accounts.ts';

const PUPPET_SO = fileURLToPath(new URL('./real-clients/anchor/workspace/target/deploy/puppet.so', import.meta.url));
const PUPPET_IDL = JSON.parse(readFileSync(new URL('./real-clients/anchor/workspace/target/idl/puppet.json', import.meta.url), 'utf8'));
const fixtures = loadFixtures();

describe('surfnet_ cheatcodes beyond accounts and the clock', () => {
  let emulator: RelayEmulator;
  let call: (method: string, params?: unknown) => Promise<any>;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    call = async (method, params = []) =>
      (
        await fetch(emulator.config.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json();
  });
  afterAll(() => emulator.close());

  const programDataOf = async (programId: PublicKey) => {
    const account = await emulator.getAccount(programDataAddress(programId));
    return account === null
      ? null
      : { authority: account.data[12] === 1 ? new PublicKey(account.data.subarray(13, 45)).toBase58() : null, elf: account.data.subarray(45) };
  };

  // bankrun loads programs at start only: the program cheatcodes answer why (as /__emulator/programs does).
  const bankrun = process.env.RELAY_EMULATOR_ENGINE === 'bankrun';

  it.skipIf(bankrun)(
    'surfnet_writeProgram writes a program in chunks; surfnet_setProgramAuthority sets and removes its authority; surfnet_cloneProgramAccount copies it',
    async () => {
      const elf = readFileSync(PUPPET_SO);
      const programId = Keypair.generate().publicKey;
      // In chunks, as Surfpool's clients write a program (a request body stays under the RPC's 64 KiB), the last chunk first:
      // until the first arrives the bytes are no ELF, and nothing is deployed.
      const CHUNK = 16 * 1024;
      const offsets = Array.from({ length: Math.ceil(elf.length / CHUNK) }, (_, index) => index * CHUNK).reverse();
      for (const [index, offset] of offsets.entries()) {
        const answer = await call('surfnet_writeProgram', [programId.toBase58(), elf.subarray(offset, offset + CHUNK).toString('hex'), offset]);
        expect(answer.result.value).toBeNull();
        if (index < offsets.length - 1) expect(await emulator.getAccount(programId)).toBeNull();
      }
      expect(await emulator.getAccount(programId)).toMatchObject({ executable: true, owner: 'BPFLoaderUpgradeab1e11111111111111111111111' });
      expect(Buffer.from((await programDataOf(programId))!.elf).equals(elf)).toBe(true);
      // Surfpool's default authority: the System Program.
      expect((await programDataOf(programId))!.authority).toBe('11111111111111111111111111111111');

      const authority = Keypair.generate().publicKey.toBase58();
      expect((await call('surfnet_setProgramAuthority', [programId.toBase58(), authority])).result.value).toBeNull();
      expect((await programDataOf(programId))!.authority).toBe(authority);
      await call('surfnet_setProgramAuthority', [programId.toBase58()]);
      expect((await programDataOf(programId))!.authority).toBeNull();
      const notProgram = Keypair.generate().publicKey.toBase58();
      expect((await call('surfnet_setProgramAuthority', [notProgram, authority])).error).toEqual({
        code: -32602,
        message: `Invalid program account ${notProgram}`,
        data: 'Account not found',
      });

      const copy = Keypair.generate().publicKey;
      expect((await call('surfnet_cloneProgramAccount', [programId.toBase58(), copy.toBase58()])).result.value).toBeNull();
      expect(Buffer.from((await programDataOf(copy))!.elf).equals(elf)).toBe(true);
      const system = fixtures.wallets[0]!.publicKey;
      expect((await call('surfnet_cloneProgramAccount', [system, copy.toBase58()])).error.message).toBe(`Account ${system} is not a program account`);
      expect((await call('surfnet_writeProgram', [programId.toBase58(), 'zz', 0])).error.message).toBe(
        "Invalid hex data provided: Invalid character 'z' at position 0",
      );
    },
  );

  it.runIf(bankrun)('surfnet_writeProgram on bankrun answers, once the bytes make a program, that programs load at start only', async () => {
    const programId = Keypair.generate().publicKey.toBase58();
    const elf = readFileSync(PUPPET_SO);
    const CHUNK = 16 * 1024;
    let last: any;
    for (let offset = 0; offset < elf.length; offset += CHUNK) {
      last = await call('surfnet_writeProgram', [programId, elf.subarray(offset, offset + CHUNK).toString('hex'), offset]);
      if (offset + CHUNK < elf.length) expect(last.result.value).toBeNull();
    }
    expect(last.error).toMatchObject({ code: -32602, message: `Invalid program account ${programId}`, data: expect.stringMatching(/bankrun/) });
    expect(await emulator.getAccount(programId)).toBeNull();
  });

  it('surfnet_registerIdl keeps an IDL by slot, and surfnet_getActiveIdl answers the newest at or before a slot', async () => {
    const programId = Keypair.generate().publicKey.toBase58();
    const idl = { ...PUPPET_IDL, address: programId };
    expect((await call('surfnet_getActiveIdl', [programId])).result.value).toBeNull();
    const slot = (await call('getSlot')).result as number;
    expect((await call('surfnet_registerIdl', [idl, slot + 10])).result).toEqual({ context: { slot: slot + 10, apiVersion: expect.any(String) }, value: null });
    expect((await call('surfnet_getActiveIdl', [programId, slot + 9])).result.value).toBeNull();
    const active = await call('surfnet_getActiveIdl', [programId, slot + 10]);
    expect(active.result).toEqual({ context: { slot: slot + 10, apiVersion: expect.any(String) }, value: idl });
  });

  it('surfnet_profileTransaction simulates, commits nothing, reports changes, units, logs and what the fee payer would pay; kept by key and tag', async () => {
    const payer = Keypair.fromSecretKey(bs58.decode(fixtures.relay.feePayer.secretKey));
    const to = Keypair.generate().publicKey;
    const { blockhash } = (await call('getLatestBlockhash')).result.value;
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_000_000 })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const encoded = Buffer.from(tx.serialize()).toString('base64');
    const answer = await call('surfnet_profileTransaction', [encoded, 'transfers', { encoding: 'base64' }]);
    const profile = answer.result.value;
    expect(profile).toMatchObject({ slot: expect.any(Number), key: expect.stringMatching(/^[0-9a-f-]{36}$/), readonlyAccountStates: expect.any(Object) });
    expect(profile.transactionProfile).toMatchObject({
      computeUnitsConsumed: 150,
      errorMessage: null,
      logMessages: expect.arrayContaining(['Program 11111111111111111111111111111111 success']),
      sponsorCost: {
        feePayer: payer.publicKey.toBase58(),
        feeLamports: 5000,
        // bankrun reports no states after a simulation: what left the payer past its fee is unknown there.
        ...(bankrun ? { rentLamports: null, sponsorLamports: null } : { rentLamports: 1_000_000, sponsorLamports: 1_005_000 }),
        computeUnits: 150,
      },
    });
    const states = profile.transactionProfile.accountStates;
    expect(states['11111111111111111111111111111111']).toEqual({ type: 'readonly' });
    if (!bankrun)
      expect(states[to.toBase58()]).toEqual({
        type: 'writable',
        accountChange: { type: 'create', data: expect.objectContaining({ lamports: 1_000_000, owner: '11111111111111111111111111111111' }) },
      });
    expect(states[payer.publicKey.toBase58()].accountChange.type).toBe(bankrun ? 'unchanged' : 'update');
    // Nothing committed.
    expect(await emulator.getAccount(to)).toBeNull();
    expect((await call('surfnet_getTransactionProfile', [profile.key])).result.value).toEqual(profile);
    expect((await call('surfnet_getProfileResultsByTag', ['transfers'])).result.value).toEqual([profile]);
    expect((await call('surfnet_getProfileResultsByTag', ['none'])).result.value).toBeNull();
    expect((await call('surfnet_getTransactionProfile', ['nope'])).error.message).toBe('Invalid params: expected a Uuid or a valid Solana Signature.');
    // A fee payer that holds nothing: stopped before it ran, it would pay nothing.
    const poor = Keypair.generate();
    const unfunded = new VersionedTransaction(
      new TransactionMessage({
        payerKey: poor.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: to, lamports: 1 })],
      }).compileToV0Message(),
    );
    unfunded.sign([poor]);
    const refused = (await call('surfnet_profileTransaction', [Buffer.from(unfunded.serialize()).toString('base64')])).result.value.transactionProfile;
    expect(refused).toMatchObject({
      errorMessage: 'Attempt to debit an account but found no record of a prior credit.',
      sponsorCost: { feeLamports: 0, sponsorLamports: 0 },
    });
    expect((await call('surfnet_profileTransaction', ['!!'])).error).toEqual({ code: -32602, message: 'Invalid base64 transaction' });
    expect((await call('surfnet_profileTransaction', ['AAAA'])).error).toEqual({ code: -32602, message: 'Failed to deserialize transaction' });
  });

  it('keeps the latest 200 profiles: an evicted one leaves its tag, and a tag is a name (at most 256 characters)', async () => {
    const payer = Keypair.fromSecretKey(bs58.decode(fixtures.relay.feePayer.secretKey));
    const { blockhash } = (await call('getLatestBlockhash')).result.value;
    const transfer = (lamports: number) => {
      const tx = new VersionedTransaction(
        new TransactionMessage({
          payerKey: payer.publicKey,
          recentBlockhash: blockhash,
          instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports })],
        }).compileToV0Message(),
      );
      tx.sign([payer]);
      return Buffer.from(tx.serialize()).toString('base64');
    };
    const first = (await call('surfnet_profileTransaction', [transfer(1), 'first'])).result.value;
    for (let at = 2; at <= 201; at += 1) await call('surfnet_profileTransaction', [transfer(at), `tag-${at}`]);
    expect((await call('surfnet_getTransactionProfile', [first.key])).result.value).toBeNull();
    expect((await call('surfnet_getProfileResultsByTag', ['first'])).result.value).toBeNull();
    expect((await call('surfnet_getProfileResultsByTag', ['tag-201'])).result.value).toHaveLength(1);
    expect((await call('surfnet_profileTransaction', [transfer(1), 'x'.repeat(257)])).error.message).toBe('A tag is at most 256 characters');
  });

  it.skipIf(process.env.RELAY_EMULATOR_ENGINE === 'bankrun')(
    'surfnet_exportSnapshot answers at most 64 MiB of account data, as getProgramAccounts',
    async () => {
      const big = Array.from({ length: 7 }, () => Keypair.generate().publicKey.toBase58());
      for (const address of big) {
        await emulator.setAccount(address, {
          lamports: 1_000_000_000n,
          owner: '11111111111111111111111111111111',
          data: new Uint8Array(10 * 1024 * 1024),
          executable: false,
        });
      }
      const refused = await call('surfnet_exportSnapshot', []);
      expect(refused.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Too much account data to export: \d+ bytes; max 67108864 /) });
      // Filtered, it answers.
      const some = await call('surfnet_exportSnapshot', [{ scope: 'network', filter: { excludeAccounts: big.slice(1) } }]);
      expect(some.result.value[big[0]!].data).toHaveLength(Math.ceil((10 * 1024 * 1024) / 3) * 4);
      for (const address of big)
        await emulator.setAccount(address, { lamports: 0n, owner: '11111111111111111111111111111111', data: new Uint8Array(), executable: false });
    },
  );

  it('surfnet_getLocalSignatures lists the ledger’s transactions newest first; surfnet_setSupply sets what getSupply answers', async () => {
    const signature = (await call('requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1_000_000])).result as string;
    await emulator.flushQueue();
    const local = (await call('surfnet_getLocalSignatures', [1])).result.value;
    expect(local).toEqual([{ signature, err: null, logs: expect.any(Array) }]);
    expect((await call('surfnet_getLocalSignatures', [0])).result.value).toEqual([]);

    const counted = (await call('getSupply')).result.value;
    const account = Keypair.generate().publicKey.toBase58();
    await call('surfnet_setSupply', [{ total: 1000, non_circulating: 10, non_circulating_accounts: [account] }]);
    expect((await call('getSupply')).result.value).toEqual({
      total: 1000,
      circulating: counted.circulating,
      nonCirculating: 10,
      nonCirculatingAccounts: [account],
    });
    expect((await call('surfnet_setSupply', [{ non_circulating_accounts: ['x'] }])).error.message).toBe("Invalid pubkey 'x' at index 0");
  });

  it('surfnet_exportSnapshot answers Surfpool’s snapshot: sorted, base64, rent epochs exact, programs only when asked', async () => {
    const address = Keypair.generate().publicKey.toBase58();
    await call('surfnet_setAccount', [address, { lamports: 4242, data: 'c0ffee' }]);
    const text = await (
      await fetch(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'surfnet_exportSnapshot', params: [] }),
      })
    ).text();
    const value = JSON.parse(text).result.value as Record<string, any>;
    expect(value[address]).toEqual({
      lamports: 4242,
      owner: '11111111111111111111111111111111',
      executable: false,
      rentEpoch: expect.any(Number),
      data: Buffer.from('c0ffee', 'hex').toString('base64'),
      parsedData: null,
    });
    expect(text).toContain('"rentEpoch":18446744073709551615');
    expect(Object.keys(value)).toEqual([...Object.keys(value)].sort());
    expect(Object.values(value).some((account: any) => account.owner === 'BPFLoaderUpgradeab1e11111111111111111111111')).toBe(false);
    expect((await call('surfnet_exportSnapshot', [{}])).error.message).toBe('Invalid params: missing field `scope`.');
    const only = (await call('surfnet_exportSnapshot', [{ scope: 'network', filter: { excludeAccounts: [address] } }])).result.value;
    expect(only[address]).toBeUndefined();
  });

  it('surfnet_streamAccount(s) and surfnet_offlineAccount mark accounts; surfnet_getStreamedAccounts lists them', async () => {
    const [a, b] = [Keypair.generate().publicKey.toBase58(), Keypair.generate().publicKey.toBase58()];
    expect((await call('surfnet_streamAccount', [a])).result.value).toBeNull();
    await call('surfnet_streamAccounts', [[{ pubkey: b, includeOwnedAccounts: true }]]);
    expect((await call('surfnet_getStreamedAccounts')).result.value.accounts).toEqual(
      expect.arrayContaining([
        { pubkey: a, includeOwnedAccounts: false },
        { pubkey: b, includeOwnedAccounts: true },
      ]),
    );
    await call('surfnet_offlineAccount', [a]);
    expect((await call('surfnet_getStreamedAccounts')).result.value.accounts).not.toContainEqual({ pubkey: a, includeOwnedAccounts: false });
    // Surfpool's resetAccount clears the mark and takes the account again: here, what genesis held.
    const mint = fixtures.mints[0]!.address;
    await call('surfnet_offlineAccount', [mint]);
    await call('surfnet_setAccount', [mint, { lamports: 5 }]);
    await call('surfnet_resetAccount', [mint]);
    expect((await emulator.getAccount(mint))?.lamports).toBe(1_461_600n);
  });

  it('surfnet_disableCheatcode turns cheatcodes off as Surfpool does, surfnet_enableCheatcode back on; a lockout is for good', async () => {
    const other = await createRelayEmulator();
    try {
      const ask = async (method: string, params: unknown = []) =>
        (
          await fetch(other.config.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }),
          })
        ).json() as Promise<any>;
      expect((await ask('surfnet_disableCheatcode', [['surfnet_setSupply']])).result.value).toBeNull();
      expect(await ask('surfnet_setSupply', [{ total: 1 }])).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32600, message: 'Cheatcode rpc method: surfnet_setSupply is currently disabled' },
      });
      expect((await ask('surfnet_disableCheatcode', [['surfnet_setSupply']])).error).toEqual({
        code: -32600,
        message: 'Invalid request',
        data: 'Unable to disable cheatcode: Cheatcode already disabled',
      });
      expect((await ask('surfnet_disableCheatcode', [['surfnet_enableCheatcode']])).error.data).toBe(
        'Unable to disable cheatcode: Cannot disable surfnet_enableCheatcode or surfnet_disableCheatcode rpc method when lockout is not enabled',
      );
      expect((await ask('surfnet_enableCheatcode', [['surfnet_timeTravel']])).error.data).toBe("Unable to enable cheatcode: Cheatcode isn't disabled");
      expect((await ask('surfnet_enableCheatcode', [['surfnet_nope']])).error.data).toBe(
        'Unable to enable cheatcode: Invalid cheatcode rpc method: surfnet_nope',
      );
      await ask('surfnet_enableCheatcode', ['all']);
      expect((await ask('surfnet_setSupply', [{ total: 1 }])).result.value).toBeNull();
      await ask('surfnet_disableCheatcode', ['all', { lockout: true }]);
      expect((await ask('surfnet_enableCheatcode', ['all'])).error.message).toBe('Cheatcode rpc method: surfnet_enableCheatcode is currently disabled');
      expect((await ask('surfnet_getSurfnetInfo', null)).error.code).toBe(-32600);
      // The RPC itself is untouched.
      expect((await ask('getSlot')).result).toEqual(expect.any(Number));
    } finally {
      await other.close();
    }
  });
});
