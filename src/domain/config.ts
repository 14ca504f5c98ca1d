import type { RpcAuthMode } from './auth/rpc-auth.ts';
import type { PolicyProfile } from './relay/policy-options.ts';

/** What an emulator exposes about itself: its URLs, keys and settings (`emulator.config`). */
export interface EmulatorConfig {
  baseUrl: string;
  rpcUrl: string;
  /** Where Kora's JSON-RPC answers (also `/kora` at every origin served). */
  koraUrl: string;
  /**
   * The PubSub WebSocket URL clients derive by themselves from `rpcUrl` (its port + 1, as web3.js
   * does; the emulator serves it), or null when no listener serves it (option `loopback: false`,
   * or an `rpcUrl` of the caller's). PubSub also answers on `rpcUrl`'s own port.
   */
  pubsubUrl: string | null;
  /** The first accepted API key. */
  apiKey: string;
  /** The fee payer's public key, base58. */
  feePayer: string;
  /** The validator's identity (getIdentity, the leader schedule, getClusterNodes), base58. */
  identity: string;
  /** The validator's vote account (getVoteAccounts), base58. */
  voteAccount: string;
  rpcEnvironment: string;
  tokenTtlSeconds: number;
  maxBodyBytes: number;
  /** When the RPC and PubSub need the Token (src/domain/auth/rpc-auth.ts). */
  rpcAuth: RpcAuthMode;
  /** Where the web UI is served: the loopback listener's root in process, else the base URL's origin's (`<origin>/`). */
  uiUrl: string;
  /** The ledger engine running underneath (`bankrun`, `litesvm`, or the name a custom engine gives itself). */
  engine: string;
  /** The fee-payer policy profile (`faithful` or `strict`). */
  policyProfile: PolicyProfile;
}
