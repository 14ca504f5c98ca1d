import {
  CpiGuardLayout,
  DefaultAccountStateLayout,
  ExtensionType,
  getExtensionData,
  getExtensionTypes,
  GroupMemberPointerLayout,
  GroupPointerLayout,
  InterestBearingMintConfigStateLayout,
  MemoTransferLayout,
  MetadataPointerLayout,
  MintCloseAuthorityLayout,
  PausableConfigLayout,
  PermanentDelegateLayout,
  ScaledUiAmountConfigLayout,
  TransferFeeAmountLayout,
  TransferFeeConfigLayout,
  TransferHookAccountLayout,
  TransferHookLayout,
} from '@solana/spl-token';
import { unpackTokenGroup, unpackTokenGroupMember } from '@solana/spl-token-group';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { PublicKey } from '@solana/web3.js';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/**
 * Token-2022 extensions as the validator's jsonParsed lists them (agave account-decoder's
 * `UiExtension`: `{extension, state}`, camelCase, an absent authority as null), decoded with
 * @solana/spl-token's layouts. The confidential-transfer ones, which spl-token does not decode,
 * are read by their fixed layouts; their ciphertexts and ElGamal keys print as base64, as the
 * validator prints them.
 */
export type UiExtension = { extension: string; state?: Record<string, unknown> };

/** Where the type-length-value extensions start: after the 165-byte base (a mint is padded to it) and the account-type byte. */
const TLV_START = 166;
const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** The extensions of a Token-2022 mint or account's data, in the order they are stored; none for a plain (165-byte or smaller) one. */
export function tokenExtensions(data: Uint8Array): UiExtension[] {
  if (data.length <= TLV_START) return [];
  const tlv = Buffer.from(data.buffer, data.byteOffset + TLV_START, data.length - TLV_START);
  return getExtensionTypes(tlv).map((type) => {
    const state = getExtensionData(type, tlv);
    try {
      return state === null ? { extension: 'unparseableExtension' } : parseExtension(type, state);
    } catch {
      return { extension: 'unparseableExtension' };
    }
  });
}

function parseExtension(type: ExtensionType, data: Buffer): UiExtension {
  const named = (extension: string, state?: Record<string, unknown>): UiExtension => (state === undefined ? { extension } : { extension, state });
  switch (type) {
    case ExtensionType.Uninitialized:
      return named('uninitialized');
    case ExtensionType.TransferFeeConfig: {
      const config = TransferFeeConfigLayout.decode(data);
      const fee = (each: typeof config.olderTransferFee) => ({
        epoch: each.epoch,
        maximumFee: each.maximumFee,
        transferFeeBasisPoints: each.transferFeeBasisPoints,
      });
      return named('transferFeeConfig', {
        transferFeeConfigAuthority: optionalKey(config.transferFeeConfigAuthority),
        withdrawWithheldAuthority: optionalKey(config.withdrawWithheldAuthority),
        withheldAmount: config.withheldAmount,
        olderTransferFee: fee(config.olderTransferFee),
        newerTransferFee: fee(config.newerTransferFee),
      });
    }
    case ExtensionType.TransferFeeAmount:
      return named('transferFeeAmount', { withheldAmount: TransferFeeAmountLayout.decode(data).withheldAmount });
    case ExtensionType.MintCloseAuthority:
      return named('mintCloseAuthority', { closeAuthority: optionalKey(MintCloseAuthorityLayout.decode(data).closeAuthority) });
    case ExtensionType.ConfidentialTransferMint:
      return named('confidentialTransferMint', {
        authority: optionalKey(keyAt(data, 0)),
        autoApproveNewAccounts: data[32] === 1,
        auditorElgamalPubkey: optionalBase64(data, 33, 32),
      });
    case ExtensionType.ConfidentialTransferAccount:
      return named('confidentialTransferAccount', {
        approved: data[0] === 1,
        elgamalPubkey: base64(data, 1, 32),
        pendingBalanceLo: base64(data, 33, 64),
        pendingBalanceHi: base64(data, 97, 64),
        availableBalance: base64(data, 161, 64),
        decryptableAvailableBalance: base64(data, 225, 36),
        allowConfidentialCredits: data[261] === 1,
        allowNonConfidentialCredits: data[262] === 1,
        pendingBalanceCreditCounter: data.readBigUInt64LE(263),
        maximumPendingBalanceCreditCounter: data.readBigUInt64LE(271),
        expectedPendingBalanceCreditCounter: data.readBigUInt64LE(279),
        actualPendingBalanceCreditCounter: data.readBigUInt64LE(287),
      });
    case ExtensionType.DefaultAccountState:
      return named('defaultAccountState', { accountState: ACCOUNT_STATES[DefaultAccountStateLayout.decode(data).state] ?? 'uninitialized' });
    case ExtensionType.ImmutableOwner:
      return named('immutableOwner');
    case ExtensionType.MemoTransfer:
      return named('memoTransfer', { requireIncomingTransferMemos: MemoTransferLayout.decode(data).requireIncomingTransferMemos });
    case ExtensionType.NonTransferable:
      return named('nonTransferable');
    case ExtensionType.InterestBearingConfig: {
      const config = InterestBearingMintConfigStateLayout.decode(data);
      return named('interestBearingConfig', {
        rateAuthority: optionalKey(config.rateAuthority),
        initializationTimestamp: config.initializationTimestamp,
        preUpdateAverageRate: config.preUpdateAverageRate,
        lastUpdateTimestamp: config.lastUpdateTimestamp,
        currentRate: config.currentRate,
      });
    }
    case ExtensionType.CpiGuard:
      return named('cpiGuard', { lockCpi: CpiGuardLayout.decode(data).lockCpi });
    case ExtensionType.PermanentDelegate:
      return named('permanentDelegate', { delegate: optionalKey(PermanentDelegateLayout.decode(data).delegate) });
    case ExtensionType.NonTransferableAccount:
      return named('nonTransferableAccount');
    case ExtensionType.TransferHook: {
      const hook = TransferHookLayout.decode(data);
      return named('transferHook', { authority: optionalKey(hook.authority), programId: optionalKey(hook.programId) });
    }
    case ExtensionType.TransferHookAccount:
      return named('transferHookAccount', { transferring: TransferHookAccountLayout.decode(data).transferring });
    case ExtensionType.MetadataPointer: {
      const pointer = MetadataPointerLayout.decode(data);
      return named('metadataPointer', { authority: optionalKey(pointer.authority), metadataAddress: optionalKey(pointer.metadataAddress) });
    }
    case ExtensionType.TokenMetadata: {
      const metadata = unpackTokenMetadata(data);
      return named('tokenMetadata', {
        updateAuthority: metadata.updateAuthority ? optionalKey(metadata.updateAuthority) : null,
        mint: metadata.mint.toBase58(),
        name: metadata.name,
        symbol: metadata.symbol,
        uri: metadata.uri,
        additionalMetadata: metadata.additionalMetadata.map(([key, value]) => [key, value]),
      });
    }
    case ExtensionType.GroupPointer: {
      const pointer = GroupPointerLayout.decode(data);
      return named('groupPointer', { authority: optionalKey(pointer.authority), groupAddress: optionalKey(pointer.groupAddress) });
    }
    case ExtensionType.GroupMemberPointer: {
      const pointer = GroupMemberPointerLayout.decode(data);
      return named('groupMemberPointer', { authority: optionalKey(pointer.authority), memberAddress: optionalKey(pointer.memberAddress) });
    }
    case ExtensionType.TokenGroup: {
      const group = unpackTokenGroup(data);
      return named('tokenGroup', {
        updateAuthority: group.updateAuthority ? optionalKey(group.updateAuthority) : null,
        mint: group.mint.toBase58(),
        size: group.size,
        maxSize: group.maxSize,
      });
    }
    case ExtensionType.TokenGroupMember: {
      const member = unpackTokenGroupMember(data);
      return named('tokenGroupMember', { mint: member.mint.toBase58(), group: member.group.toBase58(), memberNumber: member.memberNumber });
    }
    case ExtensionType.ScaledUiAmountConfig: {
      const config = ScaledUiAmountConfigLayout.decode(data);
      return named('scaledUiAmountConfig', {
        authority: optionalKey(config.authority),
        multiplier: String(config.multiplier),
        newMultiplierEffectiveTimestamp: config.newMultiplierEffectiveTimestamp,
        newMultiplier: String(config.newMultiplier),
      });
    }
    case ExtensionType.PausableConfig: {
      const config = PausableConfigLayout.decode(data);
      return named('pausableConfig', { authority: optionalKey(config.authority), paused: config.paused });
    }
    case ExtensionType.PausableAccount:
      return named('pausableAccount');
    default:
      return parseConfidentialFees(type, data) ?? named('unparseableExtension');
  }
}

/** The confidential-fee and confidential mint-burn extensions (types 16, 17, 24), which spl-token does not name. */
function parseConfidentialFees(type: number, data: Buffer): UiExtension | null {
  if (type === 16) {
    return {
      extension: 'confidentialTransferFeeConfig',
      state: {
        authority: optionalKey(keyAt(data, 0)),
        withdrawWithheldAuthorityElgamalPubkey: optionalBase64(data, 32, 32),
        harvestToMintEnabled: data[64] === 1,
        withheldAmount: base64(data, 65, 64),
      },
    };
  }
  if (type === 17) return { extension: 'confidentialTransferFeeAmount', state: { withheldAmount: base64(data, 0, 64) } };
  if (type === 24) {
    return {
      extension: 'confidentialMintBurn',
      state: {
        confidentialSupply: base64(data, 0, 64),
        decryptableSupply: base64(data, 64, 36),
        supplyElgamalPubkey: base64(data, 100, 32),
        pendingBurn: base64(data, 132, 64),
      },
    };
  }
  return null;
}

/** An OptionalNonZeroPubkey: null when all zero. */
function optionalKey(key: PublicKey | Uint8Array | null | undefined): string | null {
  if (!key) return null;
  const bytes = key instanceof PublicKey ? key.toBytes() : key;
  return bytes.every((byte) => byte === 0) ? null : encodeBase58(bytes);
}

function keyAt(data: Buffer, offset: number): Uint8Array {
  return data.subarray(offset, offset + 32);
}

function base64(data: Buffer, offset: number, length: number): string {
  return data.subarray(offset, offset + length).toString('base64');
}

function optionalBase64(data: Buffer, offset: number, length: number): string | null {
  const bytes = data.subarray(offset, offset + length);
  return bytes.every((byte) => byte === 0) ? null : bytes.toString('base64');
}
