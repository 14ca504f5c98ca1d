import { PROGRAMS } from '../relay/programs.ts';
import { uiTokenAmount } from './ui-token-amount.ts';
import { encodeBase58 } from '../crypto/base58.ts';

/** A compiled instruction with its keys resolved to base58. */
export interface ResolvedInstruction {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

type Info = Record<string, unknown>;
interface Parsed {
  type: string;
  info: Info;
}

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

class Reader {
  #offset = 0;
  readonly #view: DataView;
  constructor(readonly data: Uint8Array) {
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u8(): number {
    return this.#view.getUint8(this.#take(1));
  }
  u32(): number {
    return this.#view.getUint32(this.#take(4), true);
  }
  u64(): bigint {
    return this.#view.getBigUint64(this.#take(8), true);
  }
  key(): string {
    const start = this.#take(32);
    return encodeBase58(this.data.subarray(start, start + 32));
  }
  /** SPL Token's COption<Pubkey> in instruction data: a 1-byte tag, then the key only when set. */
  optionKey(): string | null {
    return this.u8() === 1 ? this.key() : null;
  }
  /** bincode's String: a u64 length, then UTF-8 bytes. */
  string(): string {
    const length = Number(this.u64());
    const start = this.#take(length);
    return new TextDecoder().decode(this.data.subarray(start, start + length));
  }
  #take(length: number): number {
    const start = this.#offset;
    if (start + length > this.data.length) throw new RangeError('instruction data too short');
    this.#offset += length;
    return start;
  }
}

function account(ix: ResolvedInstruction, index: number): string {
  const key = ix.accounts[index];
  if (key === undefined) throw new RangeError('not enough accounts');
  return key;
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
      return { type: 'createAccountWithSeed', info: { source: a(0), newAccount: a(1), base, seed, lamports: Number(r.u64()), space: Number(r.u64()), owner: r.key() } };
    }
    case 4:
      return { type: 'advanceNonce', info: { nonceAccount: a(0), recentBlockhashesSysvar: a(1), nonceAuthority: a(2) } };
    case 5:
      return { type: 'withdrawFromNonce', info: { nonceAccount: a(0), destination: a(1), recentBlockhashesSysvar: a(2), rentSysvar: a(3), nonceAuthority: a(4), lamports: Number(r.u64()) } };
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

const AUTHORITY_TYPES = ['mintTokens', 'freezeAccount', 'accountOwner', 'closeAccount'] as const;

/**
 * The signer of a token instruction: a single authority at `index`, or — when more accounts follow —
 * a multisig account and its signers, named as the validator names them.
 */
function signers(ix: ResolvedInstruction, index: number, name: string, multisigName: string): Info {
  const authority = account(ix, index);
  if (ix.accounts.length > index + 1) return { [multisigName]: authority, signers: ix.accounts.slice(index + 1) };
  return { [name]: authority };
}

function parseToken(ix: ResolvedInstruction): Parsed | null {
  const r = new Reader(ix.data);
  const a = (index: number) => account(ix, index);
  switch (r.u8()) {
    case 0: {
      const decimals = r.u8();
      const mintAuthority = r.key();
      const freezeAuthority = r.optionKey();
      return { type: 'initializeMint', info: { mint: a(0), decimals, mintAuthority, rentSysvar: a(1), ...(freezeAuthority ? { freezeAuthority } : {}) } };
    }
    case 1:
      return { type: 'initializeAccount', info: { account: a(0), mint: a(1), owner: a(2), rentSysvar: a(3) } };
    case 3:
      return { type: 'transfer', info: { source: a(0), destination: a(1), amount: r.u64().toString(), ...signers(ix, 2, 'authority', 'multisigAuthority') } };
    case 4:
      return { type: 'approve', info: { source: a(0), delegate: a(1), amount: r.u64().toString(), ...signers(ix, 2, 'owner', 'multisigOwner') } };
    case 5:
      return { type: 'revoke', info: { source: a(0), ...signers(ix, 1, 'owner', 'multisigOwner') } };
    case 6: {
      const authorityType = AUTHORITY_TYPES[r.u8()];
      if (!authorityType) return null;
      const newAuthority = r.optionKey();
      const owned = authorityType === 'mintTokens' || authorityType === 'freezeAccount' ? 'mint' : 'account';
      return { type: 'setAuthority', info: { [owned]: a(0), authorityType, newAuthority, ...signers(ix, 1, 'authority', 'multisigAuthority') } };
    }
    case 7:
      return { type: 'mintTo', info: { mint: a(0), account: a(1), amount: r.u64().toString(), ...signers(ix, 2, 'mintAuthority', 'multisigMintAuthority') } };
    case 8:
      return { type: 'burn', info: { account: a(0), mint: a(1), amount: r.u64().toString(), ...signers(ix, 2, 'authority', 'multisigAuthority') } };
    case 9:
      return { type: 'closeAccount', info: { account: a(0), destination: a(1), ...signers(ix, 2, 'owner', 'multisigOwner') } };
    case 10:
      return { type: 'freezeAccount', info: { account: a(0), mint: a(1), ...signers(ix, 2, 'freezeAuthority', 'multisigFreezeAuthority') } };
    case 11:
      return { type: 'thawAccount', info: { account: a(0), mint: a(1), ...signers(ix, 2, 'freezeAuthority', 'multisigFreezeAuthority') } };
    case 12: {
      const amount = r.u64();
      const decimals = r.u8();
      return { type: 'transferChecked', info: { source: a(0), mint: a(1), destination: a(2), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 3, 'authority', 'multisigAuthority') } };
    }
    case 13: {
      const amount = r.u64();
      const decimals = r.u8();
      return { type: 'approveChecked', info: { source: a(0), mint: a(1), delegate: a(2), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 3, 'owner', 'multisigOwner') } };
    }
    case 14: {
      const amount = r.u64();
      const decimals = r.u8();
      return { type: 'mintToChecked', info: { mint: a(0), account: a(1), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 2, 'mintAuthority', 'multisigMintAuthority') } };
    }
    case 15: {
      const amount = r.u64();
      const decimals = r.u8();
      return { type: 'burnChecked', info: { account: a(0), mint: a(1), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 2, 'authority', 'multisigAuthority') } };
    }
    case 16:
      return { type: 'initializeAccount2', info: { account: a(0), mint: a(1), owner: r.key(), rentSysvar: a(2) } };
    case 17:
      return { type: 'syncNative', info: { account: a(0) } };
    case 18:
      return { type: 'initializeAccount3', info: { account: a(0), mint: a(1), owner: r.key() } };
    case 20: {
      const decimals = r.u8();
      const mintAuthority = r.key();
      const freezeAuthority = r.optionKey();
      return { type: 'initializeMint2', info: { mint: a(0), decimals, mintAuthority, ...(freezeAuthority ? { freezeAuthority } : {}) } };
    }
    case 21:
      return { type: 'getAccountDataSize', info: { mint: a(0) } };
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: a(0) } };
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
