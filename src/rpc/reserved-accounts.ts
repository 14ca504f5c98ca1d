import { PublicKey, type VersionedMessage } from '@solana/web3.js';

// Agave's reserved account keys (builtin programs and sysvars): a message can never write them,
// so the RPC reports them read-only whatever the header says.
const RESERVED = new Set([
  '11111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'Feature111111111111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'StakeConfig11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'ZkTokenProof1111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
]);

const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');

/**
 * Whether the runtime lets the message write static key `index`: the header says writable, the key
 * is not reserved, and it is not invoked as a program (unless the upgradeable loader is present).
 */
export function isWritable(message: VersionedMessage, index: number): boolean {
  if (!message.isAccountWritable(index)) return false;
  const keys = message.staticAccountKeys;
  const key = keys[index];
  if (!key || RESERVED.has(key.toBase58())) return false;
  const calledAsProgram = message.compiledInstructions.some((ix) => ix.programIdIndex === index);
  return !calledAsProgram || keys.some((candidate) => candidate.equals(UPGRADEABLE_LOADER));
}
