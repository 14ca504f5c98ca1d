import { encodeBase58 } from '../../base/crypto/base58.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import { account, Reader, type Parsed, type ResolvedInstruction } from './instruction-data.ts';
import { parseToken } from './parse-token-instruction.ts';

export type { ResolvedInstruction } from './instruction-data.ts';

/**
 * An instruction in the `jsonParsed` encoding, as the validator's parsers render it: `{program,
 * programId, parsed, stackHeight}` for the System, SPL Token (and Token-2022 base), Associated Token
 * and Memo programs, and the partially decoded `{programId, accounts, data, stackHeight}` for every
 * other program or for data the parser does not recognise.
 */
export function parseInstruction(ix: ResolvedInstruction, stackHeight: number | null = null): Record<string, unknown> {
  const parsed = parseKnown(ix);
  if (parsed) return { program: parsed.program, programId: ix.programId, parsed: parsed.parsed, stackHeight };
  return { programId: ix.programId, accounts: ix.accounts, data: encodeBase58(ix.data), stackHeight };
}

function parseKnown(ix: ResolvedInstruction): { program: string; parsed: unknown } | null {
  try {
    switch (ix.programId) {
      case PROGRAMS.system.toBase58(): {
        const parsed = parseSystem(ix);
        return parsed && { program: 'system', parsed };
      }
      case PROGRAMS.token.toBase58():
      case PROGRAMS.token2022.toBase58(): {
        const parsed = parseToken(ix);
        return parsed && { program: ix.programId === PROGRAMS.token.toBase58() ? 'spl-token' : 'spl-token-2022', parsed };
      }
      case PROGRAMS.associatedToken.toBase58(): {
        const parsed = parseAssociatedToken(ix);
        return parsed && { program: 'spl-associated-token-account', parsed };
      }
      case PROGRAMS.memo.toBase58():
      case PROGRAMS.memoV1.toBase58(): {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(ix.data);
        return { program: 'spl-memo', parsed: text };
      }
      default:
        return null;
    }
  } catch {
    // Truncated data or too few accounts: the validator falls back to the partially decoded form.
    return null;
  }
}

function parseSystem(ix: ResolvedInstruction): Parsed | null {
  const r = new Reader(ix.data);
  const a = (index: number) => account(ix, index);
  switch (r.u32()) {
    case 0:
      return { type: 'createAccount', info: { source: a(0), newAccount: a(1), lamports: Number(r.u64()), space: Number(r.u64()), owner: r.key() } };
    case 1:
      return { type: 'assign', info: { account: a(0), owner: r.key() } };
    case 2:
      return { type: 'transfer', info: { source: a(0), destination: a(1), lamports: Number(r.u64()) } };
    case 3: {
      const base = r.key();
      const seed = r.string();
      return {
        type: 'createAccountWithSeed',
        info: { source: a(0), newAccount: a(1), base, seed, lamports: Number(r.u64()), space: Number(r.u64()), owner: r.key() },
      };
    }
    case 4:
      return { type: 'advanceNonce', info: { nonceAccount: a(0), recentBlockhashesSysvar: a(1), nonceAuthority: a(2) } };
    case 5:
      return {
        type: 'withdrawFromNonce',
        info: { nonceAccount: a(0), destination: a(1), recentBlockhashesSysvar: a(2), rentSysvar: a(3), nonceAuthority: a(4), lamports: Number(r.u64()) },
      };
    case 6:
      return { type: 'initializeNonce', info: { nonceAccount: a(0), recentBlockhashesSysvar: a(1), rentSysvar: a(2), nonceAuthority: r.key() } };
    case 7:
      return { type: 'authorizeNonce', info: { nonceAccount: a(0), nonceAuthority: a(1), newAuthorized: r.key() } };
    case 8:
      return { type: 'allocate', info: { account: a(0), space: Number(r.u64()) } };
    case 9: {
      const base = r.key();
      const seed = r.string();
      return { type: 'allocateWithSeed', info: { account: a(0), base, seed, space: Number(r.u64()), owner: r.key() } };
    }
    case 10: {
      const base = r.key();
      const seed = r.string();
      return { type: 'assignWithSeed', info: { account: a(0), base, seed, owner: r.key() } };
    }
    case 11: {
      const lamports = Number(r.u64());
      const fromSeed = r.string();
      return { type: 'transferWithSeed', info: { source: a(0), sourceBase: a(1), destination: a(2), lamports, sourceSeed: fromSeed, sourceOwner: r.key() } };
    }
    case 12:
      return { type: 'upgradeNonce', info: { nonceAccount: a(0) } };
    default:
      return null;
  }
}

function parseAssociatedToken(ix: ResolvedInstruction): Parsed | null {
  const a = (index: number) => account(ix, index);
  const create = () => ({ source: a(0), account: a(1), wallet: a(2), mint: a(3), systemProgram: a(4), tokenProgram: a(5) });
  if (ix.data.length === 0) return { type: 'create', info: create() };
  switch (ix.data[0]) {
    case 0:
      return { type: 'create', info: create() };
    case 1:
      return { type: 'createIdempotent', info: create() };
    case 2:
      return {
        type: 'recoverNested',
        info: { nestedSource: a(0), nestedMint: a(1), destination: a(2), nestedOwner: a(3), ownerMint: a(4), wallet: a(5), tokenProgram: a(6) },
      };
    default:
      return null;
  }
}
