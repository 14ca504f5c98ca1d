import { createRequire } from 'node:module';
import { PublicKey } from '@solana/web3.js';
import { idlTypesTooLarge, loopsOverEmptyElements } from './idl-layout-bounds.ts';

/** One instruction of an app's program, decoded by its Anchor IDL: the name, the arguments, and its accounts by name. */
export interface IdlInstruction {
  name: string;
  /** Each argument as the IDL types it, its value in words (`"5"` for a u64, JSON for a struct), as Anchor's TS client formats it. */
  args: { name: string; type: string; value: string }[];
  /** The instruction's accounts in order, by the IDL's names (`group.name` in a composite; `null` past the ones it names: remaining accounts). */
  accounts: { name: string | null; address: string }[];
}

export type IdlInstructionDecoder = (data: Uint8Array, accounts: readonly string[]) => IdlInstruction | undefined;

interface AnchorInstructionCoder {
  ixLayouts: Map<string, { layout: { getSpan(buffer: Buffer, offset: number): number } }>;
  decode(data: Buffer): { name: string; data: object } | null;
  format(
    ix: { name: string; data: object },
    accounts: { pubkey: PublicKey; isSigner: boolean; isWritable: boolean }[],
  ): {
    args: { name: string; type: string; data: string }[];
  } | null;
}

const require = createRequire(import.meta.url);

/**
 * A decoder for the instructions an IDL describes, by Anchor's own coder (`BorshInstructionCoder`
 * of `@coral-xyz/anchor`, what an app's TS client encodes them with), so that its names and
 * formatting are Anchor's. Loaded on first use: most starts decode nothing. Null for an IDL
 * before Anchor 0.30's spec (its instructions carry no `discriminator`) or one the coder cannot
 * read. Data shorter than the arguments need is not decoded: Anchor's coder would read past it
 * and show a value that was never sent (the program itself fails it, InstructionDidNotDeserialize).
 */
export function idlInstructionDecoder(idl: Record<string, unknown>): IdlInstructionDecoder | null {
  const instructions = idl.instructions;
  if (!Array.isArray(instructions) || !instructions.every(isInstruction)) return null;
  if (idlTypesTooLarge(instructions, idl.types)) return null;
  let coder: AnchorInstructionCoder;
  let accountNames: Map<string, string[]>;
  try {
    const { BorshInstructionCoder } = require('@coral-xyz/anchor') as { BorshInstructionCoder: new (idl: object) => AnchorInstructionCoder };
    coder = new BorshInstructionCoder(idl);
    if (loopsOverEmptyElements([...coder.ixLayouts.values()].map((ix) => ix.layout))) return null;
    accountNames = new Map(instructions.map((ix) => [ix.name, Array.isArray(ix.accounts) ? namesOf(ix.accounts, '') : []]));
  } catch {
    return null; // A type the coder does not know, composites nested past the stack: the IDL still names the program and its errors.
  }
  return (data, accounts) => {
    // An exact copy: Buffer.from(Uint8Array) may sit in a shared pool, which the coder would read past the end into.
    const bytes = Buffer.alloc(data.length);
    bytes.set(data);
    try {
      const decoded = coder.decode(bytes);
      if (!decoded || coder.ixLayouts.get(decoded.name)!.layout.getSpan(bytes, 8) > bytes.length - 8) return undefined;
      const metas = accounts.map((address) => ({ pubkey: new PublicKey(address), isSigner: false, isWritable: false }));
      const formatted = coder.format(decoded, metas);
      if (!formatted) return undefined;
      // Accounts by the IDL's own names: Anchor's format() retitles them, and reads snake_case badly (`Puppet_program`).
      const names = accountNames.get(decoded.name) ?? [];
      return {
        name: decoded.name,
        args: formatted.args.map((arg) => ({ name: arg.name, type: arg.type, value: arg.data })),
        accounts: accounts.map((address, at) => ({ name: names[at] ?? null, address })),
      };
    } catch {
      return undefined; // Bytes the layout cannot hold (a length past the end, a bad enum tag): not this IDL's instruction.
    }
  };
}

/** An instruction's account names in order, a composite's flattened as `group.name` (an IDL nests them under `accounts`). */
function namesOf(accounts: readonly unknown[], prefix: string): string[] {
  return accounts.flatMap((account) => {
    const { name, accounts: nested } = (typeof account === 'object' && account !== null ? account : {}) as { name?: unknown; accounts?: unknown };
    const full = `${prefix}${typeof name === 'string' ? name : '?'}`;
    return Array.isArray(nested) ? namesOf(nested, `${full}.`) : [full];
  });
}

/** An instruction the coder can take: an object with a name and a discriminator of at least one byte (an empty one matches any data). */
function isInstruction(ix: unknown): ix is { name: string; discriminator: unknown[]; accounts?: unknown } {
  if (typeof ix !== 'object' || ix === null) return false;
  const { name, discriminator } = ix as { name?: unknown; discriminator?: unknown };
  return typeof name === 'string' && Array.isArray(discriminator) && discriminator.length > 0;
}
