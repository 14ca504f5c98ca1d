import { ANCHOR_USER_ERROR_START, anchorFrameworkErrorName } from './anchor-framework-errors.ts';
import { type IdlInstruction, type IdlInstructionDecoder, idlInstructionDecoder } from './idl-instructions.ts';

/** What the emulator takes from a program's Anchor IDL (src/domain/fixtures/program-idl.ts reads it). */
export interface ProgramIdl {
  /** The IDL's program name (`metadata.name`; `name` in IDLs before Anchor 0.30). */
  name: string;
  /** The program id the IDL was built for (`address`, Anchor 0.30 and later), or null. */
  address: string | null;
  /** Its custom errors' names by code (Anchor's `#[error_code]`, 6000 and up). */
  errors: ReadonlyMap<number, string>;
  /** The file it was read from (`--watch` reads it again when it changes), or null for an IDL given as an object. */
  path: string | null;
  /** The IDL as parsed, for decoding its instructions. */
  source: Record<string, unknown>;
}

/**
 * The IDLs of the app's programs, by program id: their names, errors and instructions, for the web
 * UI, the transaction journal and error texts. An IDL stays with its program id when the program
 * is redeployed, and is replaced when `--watch` sees its file change.
 */
export class ProgramIdls {
  readonly #idls = new Map<string, { idl: ProgramIdl; decoder: IdlInstructionDecoder | null | undefined }>();

  /**
   * Takes `idl` for `programId`; a warning when the IDL says it was built for another program (its
   * `address`): an IDL copied under the wrong name names and decodes the program wrongly.
   */
  set(programId: string, idl: ProgramIdl): string | undefined {
    this.#idls.set(programId, { idl, decoder: undefined });
    if (idl.address === null || idl.address === programId) return undefined;
    return (
      `${idl.path ?? `the IDL given for ${programId}`}: it was built for ${idl.address} (its address), not ${programId}; ` +
      `the names it gives this program (${idl.name}, its instructions and errors) may be another program's`
    );
  }

  get(programId: string): ProgramIdl | undefined {
    return this.#idls.get(programId)?.idl;
  }

  /** Program ids and the files their IDLs came from, for `--watch`. */
  files(): { programId: string; path: string }[] {
    return [...this.#idls].flatMap(([programId, { idl }]) => (idl.path === null ? [] : [{ programId, path: idl.path }]));
  }

  /**
   * The name of custom error `code` of `programId`: from its IDL (6000 and up), or for an Anchor
   * program (one with an IDL) below 6000 from Anchor's framework table (`AccountNotInitialized`);
   * undefined without an IDL, or for a code neither lists.
   */
  errorName(programId: string, code: number): string | undefined {
    const idl = this.get(programId);
    if (!idl) return undefined;
    return idl.errors.get(code) ?? (code < ANCHOR_USER_ERROR_START ? anchorFrameworkErrorName(code) : undefined);
  }

  /** The program's name in its IDL, or undefined. */
  programName(programId: string): string | undefined {
    return this.get(programId)?.name;
  }

  /** One instruction of `programId` decoded by its IDL, or undefined (no IDL, or data it does not describe). */
  decodeInstruction(programId: string, data: Uint8Array, accounts: readonly string[]): IdlInstruction | undefined {
    const entry = this.#idls.get(programId);
    if (!entry) return undefined;
    entry.decoder ??= idlInstructionDecoder(entry.idl.source);
    return entry.decoder?.(data, accounts);
  }
}
