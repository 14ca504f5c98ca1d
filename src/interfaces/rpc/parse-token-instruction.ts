import { uiTokenAmount } from './ui-token-amount.ts';
import { account, Reader, type Info, type Parsed, type ResolvedInstruction } from './instruction-data.ts';

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

/** SPL Token (and Token-2022 base) instructions, as the validator's parser renders them; null for others. */
export function parseToken(ix: ResolvedInstruction): Parsed | null {
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
      return {
        type: 'transferChecked',
        info: {
          source: a(0),
          mint: a(1),
          destination: a(2),
          tokenAmount: uiTokenAmount(amount, decimals),
          ...signers(ix, 3, 'authority', 'multisigAuthority'),
        },
      };
    }
    case 13: {
      const amount = r.u64();
      const decimals = r.u8();
      return {
        type: 'approveChecked',
        info: { source: a(0), mint: a(1), delegate: a(2), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 3, 'owner', 'multisigOwner') },
      };
    }
    case 14: {
      const amount = r.u64();
      const decimals = r.u8();
      return {
        type: 'mintToChecked',
        info: { mint: a(0), account: a(1), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 2, 'mintAuthority', 'multisigMintAuthority') },
      };
    }
    case 15: {
      const amount = r.u64();
      const decimals = r.u8();
      return {
        type: 'burnChecked',
        info: { account: a(0), mint: a(1), tokenAmount: uiTokenAmount(amount, decimals), ...signers(ix, 2, 'authority', 'multisigAuthority') },
      };
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
    case 38:
      return { type: 'withdrawExcessLamports', info: { source: a(0), destination: a(1), ...signers(ix, 2, 'authority', 'multisigAuthority') } };
    case 45: {
      // p-token's UnwrapLamports: an optional amount (none: all of it).
      const amount = r.u8() === 1 ? r.u64().toString() : null;
      return {
        type: 'unwrapLamports',
        info: { source: a(0), destination: a(1), ...(amount === null ? {} : { amount }), ...signers(ix, 2, 'authority', 'multisigAuthority') },
      };
    }
    case 255:
      return parseBatch(ix);
    default:
      return null;
  }
}

/**
 * p-token's Batch: its instructions one after the other, each `[accounts: u8, length: u8, data]`,
 * taking its accounts in turn from the batch's; each parsed as on its own.
 */
function parseBatch(ix: ResolvedInstruction): Parsed | null {
  const instructions: unknown[] = [];
  let offset = 1;
  let accounts = 0;
  while (offset < ix.data.length) {
    const count = ix.data[offset]!;
    const length = ix.data[offset + 1];
    if (length === undefined || offset + 2 + length > ix.data.length || accounts + count > ix.accounts.length) return null;
    const inner = { programId: ix.programId, accounts: ix.accounts.slice(accounts, accounts + count), data: ix.data.subarray(offset + 2, offset + 2 + length) };
    const parsed = inner.data[0] === 255 ? null : parseToken(inner);
    if (!parsed) return null;
    instructions.push(parsed);
    offset += 2 + length;
    accounts += count;
  }
  return { type: 'batch', info: { instructions } };
}
