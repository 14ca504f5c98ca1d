import { PublicKey } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { elfProblem, PROGRAM_DATA_HEADER, programDataAddress, UPGRADEABLE_LOADER } from '../../../domain/ledger/program-accounts.ts';
import { withContext } from '../../rpc/context.ts';
import { JsonRpcError, RPC_ERROR, invalidParams } from '../../rpc/json-rpc-error.ts';
import { describeType, positional, requirePubkey } from '../../rpc/params.ts';
import type { Cheatcode, CheatcodeParts, CheatcodeState } from './cheatcode-state.ts';
import { hex } from './params.ts';

const UPGRADEABLE = UPGRADEABLE_LOADER.toBase58();
/** Programs whose bytes do not yet make an ELF, kept at once (each at most 10 MiB). */
const MAX_PENDING = 8;
/** The program account's length: its tag (2) and its program data's address. */
const PROGRAM_ACCOUNT_LENGTH = 36;

/**
 * Surfpool's program cheatcodes: an upgrade authority set or removed in the program data's header,
 * program bytes written at an offset (Surfpool writes big programs in chunks), a program copied to
 * another address, and IDLs registered by slot. Program code goes through the controls'
 * deployProgram, which swaps it between transactions; bytes that are not yet a whole ELF (the first
 * chunks of several) wait until the next write completes one (x-emulator-choice: the runtime here
 * cannot hold a program it cannot load).
 */
export function programCheatcodes(parts: CheatcodeParts, state: CheatcodeState): Record<string, Cheatcode> {
  const done = () => withContext(parts.slot(), null);
  /** Bytes written to a program that do not yet make an ELF, by program id. */
  const pending = new Map<string, { elf: Uint8Array; authority: string | null }>();

  /** The program's data account and what it holds, or Surfpool's -32602 `Invalid program account` with the reason. */
  const programOf = async (programId: PublicKey) => {
    const invalid = (data: string) => new JsonRpcError(RPC_ERROR.INVALID_PARAMS, `Invalid program account ${programId.toBase58()}`, data);
    const program = await parts.controls.getAccount(programId);
    if (program === null) throw invalid('Account not found');
    if (program.owner !== UPGRADEABLE || !program.executable || program.data.length < PROGRAM_ACCOUNT_LENGTH) throw invalid('Not a program account');
    const dataAddress = new PublicKey(program.data.subarray(4, 36));
    const data = await parts.controls.getAccount(dataAddress);
    if (data === null) throw invalid('Program data account does not exist');
    if (data.data.length < PROGRAM_DATA_HEADER || new DataView(data.data.buffer, data.data.byteOffset).getUint32(0, true) !== 3)
      throw invalid('Invalid program data account');
    return { dataAddress, data };
  };
  const authorityIn = (data: Uint8Array): string | null => (data[12] === 1 ? new PublicKey(data.subarray(13, 45)).toBase58() : null);
  const deploy = async (programId: PublicKey, elf: Uint8Array, authority: string | null) => {
    try {
      await parts.controls.deployProgram(programId, elf, { loader: 'upgradeable', upgradeAuthority: authority });
    } catch (error) {
      if (error instanceof RelayError) throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, `Invalid program account ${programId.toBase58()}`, error.message);
      throw error;
    }
  };

  return {
    surfnet_setProgramAuthority: {
      writes: true,
      async run(params) {
        const [id, authority] = positional(params, 'surfnet_setProgramAuthority', { min: 1, max: 2 });
        const programId = requirePubkey(id);
        const next = authority === undefined || authority === null ? null : requirePubkey(authority);
        // The same code again with the new authority: the runtime's program accounts are written only by a deploy.
        const { data } = await programOf(programId);
        await deploy(programId, data.data.slice(PROGRAM_DATA_HEADER), next === null ? null : next.toBase58());
        return done();
      },
    },

    surfnet_writeProgram: {
      writes: true,
      async run(params) {
        const [id, dataHex, offsetRaw, authorityRaw] = positional(params, 'surfnet_writeProgram', { min: 3, max: 4 });
        const programId = requirePubkey(id);
        const chunk = hex(dataHex);
        if (typeof offsetRaw !== 'number' || !Number.isSafeInteger(offsetRaw) || offsetRaw < 0)
          throw invalidParams(`invalid type: ${describeType(offsetRaw)}, expected usize`);
        // The ELF written so far: waiting chunks, else the program's own, else none (Surfpool creates the program).
        const key = programId.toBase58();
        const existing = (await parts.controls.getAccount(programId)) === null ? null : await programOf(programId);
        const waiting = pending.get(key);
        const current = waiting?.elf ?? existing?.data.data.subarray(PROGRAM_DATA_HEADER) ?? new Uint8Array();
        if (offsetRaw + chunk.length > 10 * 1024 * 1024) throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'Offset + data length causes integer overflow');
        const elf = new Uint8Array(Math.max(current.length, offsetRaw + chunk.length));
        elf.set(current);
        elf.set(chunk, offsetRaw);
        // Surfpool's default authority is the System Program (a LiteSVM workaround); a program's own is kept.
        const authority =
          authorityRaw === undefined || authorityRaw === null
            ? (waiting?.authority ?? (existing ? authorityIn(existing.data.data) : '11111111111111111111111111111111'))
            : requirePubkey(authorityRaw).toBase58();
        if (elfProblem(elf) !== null) {
          // At most MAX_PENDING programs half-written at once (10 MiB each at most): the oldest is dropped past it.
          pending.delete(key);
          pending.set(key, { elf, authority });
          if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
          return done();
        }
        pending.delete(key);
        await deploy(programId, elf, authority);
        return done();
      },
    },

    surfnet_cloneProgramAccount: {
      writes: true,
      async run(params) {
        const [from, to] = positional(params, 'surfnet_cloneProgramAccount', { min: 2, max: 2 });
        const source = requirePubkey(from);
        const destination = requirePubkey(to);
        const program = await parts.controls.getAccount(source);
        if (program === null || program.owner !== UPGRADEABLE || !program.executable) {
          throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, `Account ${source.toBase58()} is not a program account`);
        }
        const { dataAddress, data } = await programOf(source);
        const expected = programDataAddress(source);
        if (!dataAddress.equals(expected)) {
          throw new JsonRpcError(
            RPC_ERROR.INVALID_PARAMS,
            `Invalid program account ${source.toBase58()}`,
            `Program data address mismatch: expected ${expected.toBase58()}, found ${dataAddress.toBase58()}`,
          );
        }
        await deploy(destination, data.data.slice(PROGRAM_DATA_HEADER), authorityIn(data.data));
        return done();
      },
    },

    surfnet_registerIdl: {
      writes: true,
      run(params) {
        const [idl, slotRaw] = positional(params, 'surfnet_registerIdl', { min: 1, max: 2 });
        if (typeof idl !== 'object' || idl === null || Array.isArray(idl)) throw invalidParams(`invalid type: ${describeType(idl)}, expected struct Idl`);
        const source = idl as Record<string, unknown>;
        const address = typeof source.address === 'string' ? source.address : null;
        // Surfpool reads `address` with Pubkey::from_str_const, which panics on a bad one: answered as an error here.
        if (address === null) throw invalidParams('missing field `address`');
        const programId = requirePubkey(address).toBase58();
        const slot = slotRaw === undefined || slotRaw === null ? parts.slot() : slotNumber(slotRaw);
        // The first registration keeps the workspace's IDL (anchor build's) as the version from genesis.
        const baseline = state.idls.has(programId) ? null : parts.idls.loaded(programId);
        const versions = (state.idls.get(programId) ?? (baseline === null ? [] : [{ slot: 0, idl: baseline }])).filter((version) => version.slot !== slot);
        versions.push({ slot, idl: source });
        versions.sort((a, b) => a.slot - b.slot);
        state.idls.set(programId, versions);
        parts.idls.register(programId, source);
        return withContext(slot, null);
      },
    },

    surfnet_getActiveIdl: {
      writes: false,
      run(params) {
        const [id, slotRaw] = positional(params, 'surfnet_getActiveIdl', { min: 1, max: 2 });
        const programId = requirePubkey(id).toBase58();
        const slot = slotRaw === undefined || slotRaw === null ? parts.slot() : slotNumber(slotRaw);
        const versions = state.idls.get(programId);
        // Never registered: a workspace program's IDL (anchor build's) counts from genesis.
        if (versions === undefined) return withContext(slot, parts.idls.loaded(programId));
        return withContext(slot, versions.filter((version) => version.slot <= slot).at(-1)?.idl ?? null);
      },
    },
  };
}

function slotNumber(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidParams(`invalid type: ${describeType(value)}, expected u64`);
  return value;
}
