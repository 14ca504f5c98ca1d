import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';
import type { ChangeReporter } from '../state/change-feed.ts';
import type { StatefulPart } from '../state/state-registry.ts';
import type { Ledger } from './ledger.ts';
import { elfProblem, programAccounts, type ProgramImage, type ProgramLoader } from './program-accounts.ts';
import { RESERVED_ACCOUNT_KEYS, runtimeAccountReason } from './protected-accounts.ts';
import { type ProgramIdl, ProgramIdls } from './program-idls.ts';
import type { IdlInstruction } from './idl-instructions.ts';

export type { ProgramIdl } from './program-idls.ts';

/** A loaded program as the controls and the banner show it. */
export interface ProgramInfo {
  programId: string;
  /** The program's name in the IDL given for it, or null. */
  idl: string | null;
  loader: ProgramLoader;
  /** The upgrade authority (upgradeable programs), or null. */
  upgradeAuthority: string | null;
  /** The slot its program data records (0 for programs loaded at start, as solana-test-validator's): a number, as JSON carries it. */
  deploySlot: number;
  /** Length and SHA-256 (hex) of its ELF. */
  length: number;
  sha256: string;
  /** `start`: loaded at start (flags, option `programs`); `deployed`: deployed or replaced since. */
  origin: 'start' | 'deployed';
  /** The .so it was read from at start, or null. */
  path: string | null;
}

/**
 * What deploy() takes: an ELF for a program id, and optionally its loader and authority (default:
 * kept from the program it replaces, else upgradeable with none).
 */
export interface ProgramDeployment {
  programId: PublicKey;
  elf: Uint8Array;
  loader?: ProgramLoader;
  upgradeAuthority?: PublicKey | null;
}

/** A refused deploy: `problem` says why, in one line (the controls answer 422 PROGRAM_REFUSED). */
export class ProgramRefusedError extends Error {
  override readonly name = 'ProgramRefusedError';
}

/** What the programs' state part snapshots and journals: each program deployed since start, whole (its ELF included). */
interface DeployedProgram {
  programId: string;
  loader: ProgramLoader;
  upgradeAuthority: string | null;
  deploySlot: bigint;
  elf: Uint8Array;
}

/**
 * The app's programs: those loaded at start (genesis, from flags and options) and those deployed
 * or replaced since (the control PUT /__emulator/programs/{id}). Policy rule P1 sponsors calls to
 * any of them; the overview and the banner list them.
 *
 * Programs survive reset(): a reset puts accounts back, and a program is code, not an account's
 * state (x-emulator-choice, as solana-test-validator keeps what `solana program deploy` put there
 * until it is restarted with --reset). Programs deployed since start are a state part (`programs`):
 * snapshots, export/import, the state file and its journal keep them, ELF included; those loaded at
 * start come back from the same flags.
 */
export class LoadedPrograms {
  readonly #ledger: Ledger;
  readonly #report: ChangeReporter;
  readonly #programs = new Map<string, ProgramInfo>();
  readonly #deployed = new Map<string, DeployedProgram>();
  /** IDLs given at start, by program id: they stay with the id when its program is replaced. */
  readonly idls = new ProgramIdls();
  /** What loading said that a user should read (an IDL built for another program). */
  readonly warnings: string[] = [];

  /** The account dumps loaded at start (`--account`, `--account-dir`), for the banner and the controls. */
  readonly dumps: readonly { address: string; file: string }[];

  constructor(
    ledger: Ledger,
    atStart: {
      programs: readonly (ProgramImage & { path: string | null; idl: ProgramIdl | null })[];
      dumps: readonly { address: string; file: string }[];
    },
    report: ChangeReporter,
  ) {
    this.#ledger = ledger;
    this.dumps = atStart.dumps;
    this.#report = report;
    for (const image of atStart.programs) {
      const programId = addressOf(image.programId);
      const wrong = image.idl && this.idls.set(programId, image.idl);
      if (wrong) this.warnings.push(wrong);
      this.#programs.set(programId, infoOf(image, 'start', image.path, image.idl));
    }
  }

  errorName(programId: string, code: number): string | undefined {
    return this.idls.errorName(programId, code);
  }

  programName(programId: string): string | undefined {
    return this.idls.programName(programId);
  }

  decodeInstruction(programId: string, data: Uint8Array, accounts: readonly string[]): IdlInstruction | undefined {
    return this.idls.decodeInstruction(programId, data, accounts);
  }

  /** Takes a new IDL for a loaded program (`--watch` saw its file change); a warning when it was built for another program. */
  replaceIdl(programId: string, idl: ProgramIdl): string | undefined {
    const info = this.#programs.get(programId);
    if (!info) throw new ProgramRefusedError(`${programId} is not a program loaded here`);
    this.#programs.set(programId, { ...info, idl: idl.name });
    return this.idls.set(programId, idl);
  }

  /** True when `address` is one of the app's programs. */
  has(address: string): boolean {
    return this.#programs.has(address);
  }

  list(): ProgramInfo[] {
    return [...this.#programs.values()];
  }

  /**
   * Deploys `deployment` at its program id, or replaces the program there (the ELF, and the loader
   * and authority when given). Refused (ProgramRefusedError) for the runtime's own programs, for an
   * id that holds an account which is not one of the app's programs, for what is not a Solana ELF,
   * and on an engine that loads programs at start only.
   */
  async deploy(deployment: ProgramDeployment): Promise<ProgramInfo> {
    const programId = addressOf(deployment.programId);
    const reason = runtimeAccountReason(deployment.programId);
    if (reason) throw new ProgramRefusedError(reason);
    const problem = elfProblem(deployment.elf);
    if (problem) throw new ProgramRefusedError(`it is not a Solana program: ${problem}`);
    // The engine's own load check (its ELF loader and verifier), before anything is swapped: a program it
    // cannot run is refused here, and the code there keeps running (it used to answer 200, then fail every call).
    const unloadable = this.#ledger.programProblem(deployment.elf);
    if (unloadable) throw new ProgramRefusedError(`the ${this.#ledger.engineName} runtime cannot load it: ${unloadable}`);
    const current = this.#programs.get(programId);
    if (!current && (await this.#ledger.getAccount(deployment.programId))) {
      throw new ProgramRefusedError(`${programId} holds an account that is not a program loaded here; deploy at a new address`);
    }
    const loader = deployment.loader ?? current?.loader ?? 'upgradeable';
    const authority =
      deployment.upgradeAuthority !== undefined ? deployment.upgradeAuthority : current?.upgradeAuthority ? new PublicKey(current.upgradeAuthority) : null;
    if (loader === 'bpf-loader-2' && authority) throw new ProgramRefusedError('a BPF Loader 2 program has no upgrade authority; deploy it upgradeable');
    const image: ProgramImage = {
      programId: deployment.programId,
      loader,
      upgradeAuthority: loader === 'upgradeable' ? authority : null,
      deploySlot: this.#ledger.clock().slot,
      elf: deployment.elf,
    };
    await this.#write(image, current);
    const saved: DeployedProgram = {
      programId,
      loader,
      upgradeAuthority: image.upgradeAuthority && addressOf(image.upgradeAuthority),
      deploySlot: image.deploySlot,
      elf: image.elf,
    };
    this.#deployed.set(programId, saved);
    this.#report({ op: 'deploy', program: saved });
    return this.#programs.get(programId)!;
  }

  /** The state part `programs`: what was deployed since start, redeployed on restore and replay; untouched by reset. */
  statePart(): StatefulPart {
    return {
      name: 'programs',
      snapshot: () => [...this.#deployed.values()],
      restore: async (data) => {
        for (const program of data as DeployedProgram[]) await this.#restore(program);
      },
      reset: () => undefined,
      replay: async (changes) => {
        for (const change of changes as { op: 'deploy'; program: DeployedProgram }[]) await this.#restore(change.program);
      },
    };
  }

  async #restore(saved: DeployedProgram): Promise<void> {
    const programId = new PublicKey(saved.programId);
    const image: ProgramImage = {
      programId,
      loader: saved.loader,
      upgradeAuthority: saved.upgradeAuthority === null ? null : new PublicKey(saved.upgradeAuthority),
      deploySlot: saved.deploySlot,
      elf: saved.elf,
    };
    await this.#write(image, this.#programs.get(saved.programId));
    this.#deployed.set(saved.programId, saved);
  }

  /** Writes the program's accounts; a program that changes loader leaves no account of the old layout behind. */
  async #write(image: ProgramImage, current: ProgramInfo | undefined): Promise<void> {
    const accounts = programAccounts(image);
    if (current?.loader === 'upgradeable' && image.loader === 'bpf-loader-2') {
      const stale = programAccounts({ ...image, loader: 'upgradeable', upgradeAuthority: null })[0]!;
      accounts.unshift({ address: stale.address, account: { lamports: 0n, owner: PublicKey.default, data: new Uint8Array(), executable: false } });
    }
    for (const { address } of accounts) {
      if (RESERVED_ACCOUNT_KEYS.has(addressOf(address))) throw new ProgramRefusedError(`${addressOf(address)} is reserved by the runtime`);
    }
    await this.#ledger.writeProgram(accounts);
    const programId = addressOf(image.programId);
    this.#programs.set(programId, infoOf(image, 'deployed', null, this.idls.get(programId) ?? null));
  }
}

/**
 * ELF hashes by the bytes they were computed from: a suite's emulators load the same cached ELFs
 * (app-genesis.ts keeps them per path), and hashing Light's five programs took about 5 ms a start.
 */
const elfHashes = new WeakMap<Uint8Array, string>();

function sha256Of(elf: Uint8Array): string {
  let hash = elfHashes.get(elf);
  if (hash === undefined) {
    hash = createHash('sha256').update(elf).digest('hex');
    elfHashes.set(elf, hash);
  }
  return hash;
}

function infoOf(image: ProgramImage, origin: ProgramInfo['origin'], path: string | null, idl: ProgramIdl | null): ProgramInfo {
  return {
    programId: addressOf(image.programId),
    idl: idl?.name ?? null,
    loader: image.loader,
    upgradeAuthority: image.upgradeAuthority && addressOf(image.upgradeAuthority),
    deploySlot: Number(image.deploySlot),
    length: image.elf.length,
    sha256: sha256Of(image.elf),
    origin,
    path,
  };
}
