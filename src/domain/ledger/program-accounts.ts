import { PublicKey } from '@solana/web3.js';
import type { GenesisAccount, LedgerAccount } from './engine.ts';
import { rentExemptMinimum } from './rent.ts';

/**
 * The accounts a loaded program lives in, laid out as Solana's loaders lay them out, so that
 * getAccountInfo shows what a validator shows (docs/programs.md, "Loader layouts"):
 * - BPF Loader 2 (`--bpf-program`): one executable account owned by the loader, holding the ELF.
 * - The upgradeable loader (`--upgradeable-program`, `anchor deploy`): an executable program
 *   account of 36 bytes (state tag 2, then the program-data address) and a program-data account at
 *   the PDA `[program id]` of the loader: state tag 3, the deployment slot, the optional upgrade
 *   authority (an option tag and 32 bytes, zeros when none), then the ELF at byte 45.
 * Lamports are each account's rent-exempt minimum, as solana-test-validator funds them.
 */

export const BPF_LOADER_2 = new PublicKey('BPFLoader2111111111111111111111111111111111');
export const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');

/** UpgradeableLoaderState's tags (bincode, u32 little-endian). */
const PROGRAM_TAG = 2;
const PROGRAM_DATA_TAG = 3;
const PROGRAM_ACCOUNT_LENGTH = 36;
/** UpgradeableLoaderState::size_of_programdata_metadata(): the ELF starts here. */
export const PROGRAM_DATA_HEADER = 45;

export type ProgramLoader = 'bpf-loader-2' | 'upgradeable';

/** One program as the emulator loads it: where, under which loader, and its code. */
export interface ProgramImage {
  programId: PublicKey;
  loader: ProgramLoader;
  /** The upgrade authority (upgradeable only; null: none, the program is final). */
  upgradeAuthority: PublicKey | null;
  /** The slot the program-data account says it was deployed at (upgradeable only). */
  deploySlot: bigint;
  elf: Uint8Array;
}

export function programDataAddress(programId: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([programId.toBuffer()], UPGRADEABLE_LOADER)[0];
}

/** The accounts that hold `image`: the program account, and for the upgradeable loader its program data first (the runtime loads the program from it). */
export function programAccounts(image: ProgramImage): GenesisAccount[] {
  if (image.loader === 'bpf-loader-2') {
    return [{ address: image.programId, account: { lamports: rentExemptMinimum(image.elf.length), owner: BPF_LOADER_2, data: image.elf, executable: true } }];
  }
  const dataAddress = programDataAddress(image.programId);
  const programData = new Uint8Array(PROGRAM_DATA_HEADER + image.elf.length);
  const view = new DataView(programData.buffer);
  view.setUint32(0, PROGRAM_DATA_TAG, true);
  view.setBigUint64(4, image.deploySlot, true);
  if (image.upgradeAuthority) {
    programData[12] = 1;
    programData.set(image.upgradeAuthority.toBytes(), 13);
  }
  programData.set(image.elf, PROGRAM_DATA_HEADER);
  const program = new Uint8Array(PROGRAM_ACCOUNT_LENGTH);
  new DataView(program.buffer).setUint32(0, PROGRAM_TAG, true);
  program.set(dataAddress.toBytes(), 4);
  return [
    { address: dataAddress, account: { lamports: rentExemptMinimum(programData.length), owner: UPGRADEABLE_LOADER, data: programData, executable: false } },
    { address: image.programId, account: { lamports: rentExemptMinimum(program.length), owner: UPGRADEABLE_LOADER, data: program, executable: true } },
  ];
}

/** The upgrade authority and deploy slot a program-data account records, or null when `account` is not one. */
export function readProgramData(account: LedgerAccount | null): { deploySlot: bigint; upgradeAuthority: PublicKey | null; elf: Uint8Array } | null {
  if (!account?.owner.equals(UPGRADEABLE_LOADER) || account.data.length < PROGRAM_DATA_HEADER) return null;
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  if (view.getUint32(0, true) !== PROGRAM_DATA_TAG) return null;
  return {
    deploySlot: view.getBigUint64(4, true),
    upgradeAuthority: account.data[12] === 1 ? new PublicKey(account.data.subarray(13, 45)) : null,
    elf: account.data.subarray(PROGRAM_DATA_HEADER),
  };
}

/** ELF machine numbers Solana's loaders take: EM_BPF (older toolchains) and EM_SBF. */
const SOLANA_MACHINES = new Set([247, 263]);
const ELF_HEADER_LENGTH = 64;
const SHT_NOBITS = 8;

/**
 * Why `bytes` cannot be a Solana program's ELF, or null when its headers hold together: a 64-bit
 * little-endian ELF for BPF or SBF whose program and section headers, and every section's bytes,
 * lie inside the file. A truncated build fails here, on both engines: bankrun would take it and
 * fail only when it is invoked ("Program is not deployed"). What the runtime's verifier checks
 * beyond this (the instructions themselves), the engine checks when it loads the program.
 */
export function elfProblem(bytes: Uint8Array): string | null {
  if (bytes.length < ELF_HEADER_LENGTH) return `it is ${bytes.length} bytes, shorter than an ELF header`;
  if (bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) return 'it is not an ELF file (no \\x7fELF magic)';
  if (bytes[4] !== 2 || bytes[5] !== 1) return 'it is not a 64-bit little-endian ELF, as Solana programs are';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const machine = view.getUint16(18, true);
  if (!SOLANA_MACHINES.has(machine)) return `its ELF machine is ${machine}, not BPF (247) or SBF (263): it is not a Solana program`;
  const table = (offset: bigint, count: number, size: number, what: string) =>
    offset + BigInt(count * size) > BigInt(bytes.length) ? `its ${what} headers end past its ${bytes.length} bytes: the file is truncated` : null;
  const programHeaders = table(view.getBigUint64(32, true), view.getUint16(56, true), view.getUint16(54, true), 'program');
  if (programHeaders) return programHeaders;
  const sectionOffset = view.getBigUint64(40, true);
  const sectionSize = view.getUint16(58, true);
  const sectionCount = view.getUint16(60, true);
  const sectionHeaders = table(sectionOffset, sectionCount, sectionSize, 'section');
  if (sectionHeaders) return sectionHeaders;
  for (let index = 0; index < sectionCount; index += 1) {
    const at = Number(sectionOffset) + index * sectionSize;
    if (view.getUint32(at + 4, true) === SHT_NOBITS) continue;
    if (view.getBigUint64(at + 24, true) + view.getBigUint64(at + 32, true) > BigInt(bytes.length)) {
      return `its section ${index} ends past its ${bytes.length} bytes: the file is truncated`;
    }
  }
  return null;
}
