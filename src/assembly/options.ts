import type { RpcAuthMode } from '../domain/auth/rpc-auth.ts';
import type { KoraOptions } from '../interfaces/kora/kora-room.ts';
import type { EngineFactory } from '../domain/ledger/engine.ts';
import type { EngineName } from '../domain/ledger/engines.ts';
import type { AccountOption, ProgramOption } from '../domain/fixtures/app-genesis.ts';
import type { CloneOptions } from '../domain/fixtures/clone-cache.ts';
import type { Fixtures } from '../domain/fixtures/load-fixtures.ts';
import type { ClusterOptions } from '../domain/fixtures/validator-genesis.ts';
import type { RateLimitOptions } from '../domain/limits/rate-limit-options.ts';
import type { PolicyInput } from '../domain/relay/policy-options.ts';
import type { QueueOptions } from '../domain/relay/relay-queue.ts';

/** Options of {@link createRelayEmulator}. Every field is optional; defaults are documented per field. */
export interface RelayEmulatorOptions {
  /**
   * The relay's base URL, `/api` included. Pass your production base URL so that app code runs
   * unchanged under MSW. Default `<loopback origin>/api`, the loopback listener's port (see
   * `loopback`), so that the emulator answers real HTTP with no MSW at all; with `loopback: false`,
   * `http://127.0.0.1:8787/api` (the node server's default address).
   */
  baseUrl?: string;
  /**
   * Where the Solana JSON-RPC answers (`RpcUrl` in the config). Default `<loopback origin>/rpc`, the
   * loopback listener's port (see `loopback`); `<origin of baseUrl>/rpc` with `loopback: false`.
   */
  rpcUrl?: string;
  /**
   * Where Kora's JSON-RPC answers (issue 27: the @solana/kora SDK's `rpcUrl`). Default
   * `<loopback origin>/kora`; every origin the emulator serves also answers it at `/kora`.
   */
  koraUrl?: string;
  /** Kora's configuration: `config`, a kora.toml to read as Kora reads it. Default: the fixture mints, the `free` price. */
  kora?: KoraOptions;
  /**
   * Also serve the core on an ephemeral `127.0.0.1` port (the RPC, PubSub over WebSocket, and every
   * other route), so that clients which go around MSW reach the same emulator: @solana/web3.js 1.x,
   * which keeps the `fetch` it found at import, node-fetch, a child process. MSW handlers answer for
   * that origin too while `fetch` is patched. The listener does not keep the process alive, and
   * `close()` closes it. Default true; false opens no socket (RpcUrl is then `<origin of baseUrl>/rpc`,
   * served through MSW only, without PubSub).
   */
  loopback?: boolean;
  /** Accepted `X-API-Key` values. Default: `apiKeys` of fixtures/relay.json (`relay-emulator-dev-key`). */
  apiKeys?: string[];
  /** A fixtures directory or loaded fixtures. Default: the repository's fixtures/. */
  fixtures?: string | Fixtures;
  /** Lifetime of the config `Token`, in seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** `RpcEnvironment` of the config. Default: fixtures' `rpcEnvironment` (`devnet`). */
  rpcEnvironment?: string;
  /** Queue behaviour. Default `{ mode: 'auto', latencyMs: 0, maxPending: 10000 }`. */
  queue?: Partial<QueueOptions> & {
    /** Delay from processing to `finalized`, in ms. Default 0. */
    finalizeMs?: number;
  };
  /**
   * Fee-payer policy: a profile name (`'faithful'`, the default, sponsors what the vendor's clients
   * build and records what each such transaction exposes; `'strict'` refuses those shapes), or
   * `{ profile, maxSignatures, maxComputeUnitPrice, maxComputeUnitLimit, allowedMints, extraPrograms }`.
   * Defaults in `DEFAULT_POLICY`; the rules, both profiles side by side, are in openapi/relay.yaml.
   */
  policy?: PolicyInput;
  /**
   * Per-API-key rate limit of the current interface (a token bucket per key, checked after
   * authentication): 429 RATE_LIMITED with `Retry-After` past it. Default `null`: off, since test
   * suites burst.
   */
  rateLimit?: RateLimitOptions | null;
  /** Largest request body, in bytes. Default 65,536. */
  maxBodyBytes?: number;
  /**
   * When the RPC and PubSub require the config's Token (`Authorization: Bearer <Token>`, or
   * `?token=` on a WebSocket). Default `'remote'`: only for requests through a non-loopback bind,
   * so that unmodified web3.js, kit and gill connect in process and on loopback with nothing but
   * the URL; a Token that is sent is checked anyway. `true` (or `'always'`): every request.
   * `false` (or `'off'`): never.
   */
  rpcAuth?: boolean | RpcAuthMode;
  /**
   * Submit relayed transactions without simulating them first. By default each is simulated, as
   * the real relays' `sendTransaction` does without `skipPreflight`: one that fails simulation never
   * lands, ends `Failed` with the simulation's error and logs, and costs the fee payer nothing.
   * `true` lands such transactions as failures that pay their fee (to test the sponsor's loss).
   */
  skipPreflight?: boolean;
  /**
   * The PubSub URL the emulator reports (`config.pubsubUrl`) when a listener of the caller's serves
   * it; `startServer` sets it. Default: the loopback listener's port + 1, where web3.js looks.
   */
  pubsubUrl?: string;
  /** Unix time of slot 0 of the ledger. Default 2026-01-01T00:00:00Z, so block times are reproducible. */
  genesisTime?: Date;
  /** Wall clock for tokens and record timestamps. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * The ledger engine: `'litesvm'` (LiteSVM: mainnet's programs, SPL Token as p-token, about three
   * times the relay throughput, blockhashes that move with slots only, no memory kept per
   * emulator) or `'bankrun'` (solana-bankrun, the design card's engine, deprecated upstream; its SPL
   * Token is the 2024 build; see the README on which to pick). An advanced caller may pass an
   * {@link EngineFactory} of its own. Default: `RELAY_EMULATOR_ENGINE` when set in the
   * environment, else `'litesvm'`.
   */
  engine?: EngineName | EngineFactory;
  /**
   * Transactions a slot holds before the next one opens a new slot, as a cluster's blocks hold
   * many. Default 64; 1 gives each transaction its own slot (every slot costs bankrun ~130 KB that
   * it never frees, and a blockhash's 150 blocks then last only 150 transactions).
   */
  transactionsPerSlot?: number;
  /**
   * Wall-clock mode: a new slot every `slotTimeMs` milliseconds of wall time, as a validator makes
   * one about every 400 ms, so that slots, block height, SlotHashes, blockhash expiry and PubSub
   * slot notifications move while the emulator is idle. Block times still count 400 ms a slot. At
   * least 10. Default: off (slots move only with transactions and warps: deterministic tests).
   */
  slotTimeMs?: number;
  /**
   * How the ledger keeps time. `'instant'` (the default, deterministic): a sent transaction lands at
   * once and is final at once. `'validator'`, as solana-test-validator: a slot every `slotTimeMs`
   * (default 400); a transaction lands a quarter slot after it arrived (so a client's signature
   * subscription, made after sending, hears it land); it is processed then, confirmed a
   * slot later and finalized once rooted, 32 slots later; reads report the slot of the commitment
   * asked, PubSub's slot and root notifications follow, and slots open with time alone.
   */
  timing?: 'instant' | 'validator';
  /** Most requests the request journal keeps; the oldest fall off. 0 turns the journal off (no body copies). Default 1000. */
  journalLimit?: number;
  /**
   * The app's own programs, loaded at genesis as solana-test-validator's `--bpf-program` (`{ programId,
   * path }`) and `--upgradeable-program` (`{ programId, path, upgradeAuthority }`, or `loader:
   * 'upgradeable'`) load them, with the loaders' own account layouts (docs/programs.md). `bytes`
   * may stand for `path`. The relay sponsors calls to them (rule P1; F3 when one lists the fee
   * payer). They survive reset(). Default none.
   */
  programs?: ProgramOption[];
  /**
   * Accounts from the Solana CLI's dumps (`solana account ADDRESS --output json`), as
   * `--account ADDRESS|- FILE` loads them: `{ path }` (at the dump's own `pubkey`) or `{ address,
   * path }`. They are genesis: reset() brings them back. Default none.
   */
  accounts?: AccountOption[];
  /** Directories whose every `*.json` is such a dump, as `--account-dir DIR`. Default none. */
  accountDirs?: string[];
  /**
   * An Anchor workspace (the folder of its Anchor.toml): its programs (`target/deploy/<name>.so`),
   * `[[test.genesis]]` programs and `[test.validator]` accounts are loaded as `anchor test` passes
   * them to solana-test-validator, besides `programs`, `accounts` and `accountDirs`. Default none
   * (the command line looks for an Anchor.toml in its working directory: `--anchor`, `--no-anchor`).
   */
  anchor?: string;
  /**
   * What `surfpool start` adds, for the `surfpool` stand-in: `snapshots`, Surfpool snapshot files
   * loaded at genesis (`--snapshot`); `anchorTestConfigs`, the Anchor.toml and Test.toml files whose
   * `[test]` genesis, accounts and clones are merged as Surfpool merges them (`--anchor-test-config-path`);
   * `runbooks`, what `surfnet_getSurfnetInfo` reports as run (Anchor 1.x waits for each to complete).
   */
  surfnet?: SurfnetOptions;
  /**
   * What solana-test-validator's genesis flags set (`relay-emulator test-validator` passes them):
   * `fund`, system accounts holding lamports at genesis (`--mint`: 500,000,000 SOL; Surfpool's
   * `--airdrop`; exec's Anchor wallet); `slotsPerEpoch` (`--slots-per-epoch`, at least 32: the
   * epoch schedule, its sysvar and the RPC's epoch answers); `computeUnitLimit`
   * (`--compute-unit-limit`: the most compute units a transaction may use); `deactivateFeatures`
   * (`--deactivate-feature`); `warpSlot` (`--warp-slot`: the first slot). They survive reset().
   * Default none: mainnet's.
   */
  genesis?: GenesisOptions;
  /**
   * Accounts of a cluster, fetched once and kept (the clone cache): `{ url, accounts, maybe,
   * upgradeablePrograms, lookupTables, cache, refresh }`, as solana-test-validator's `--url`,
   * `--clone`, `--maybe-clone`, `--clone-upgradeable-program` and `--deep-clone-address-lookup-table`
   * ask for them. A later start finds them in the cache (default `.relay-emulator/clones`) and needs
   * no network; `refresh` fetches again. They load as account dumps: genesis, and a cloned program
   * is one of the app's (rules P1, F3). Default none.
   */
  clone?: CloneOptions;
  /**
   * The validator the emulator stands for (src/domain/fixtures/validator-genesis.ts): every genesis
   * holds its identity, vote and stake accounts and the stake config as solana-test-validator's
   * does. `genesis: 'validator'` leaves the fixture app (wallets, mints, token accounts, legacy
   * apps) out and gives the faucet `faucetLamports` (default 1,000,000 SOL), as
   * `relay-emulator test-validator` starts; `'app'` (the default) keeps it. `keys`: the secret keys
   * of its identity, vote and stake accounts and faucet; default fixed seeds (the same in every run).
   */
  cluster?: ClusterOptions;
}

/** See {@link RelayEmulatorOptions.genesis}. */
export interface GenesisOptions {
  fund?: { address: string; lamports: bigint | number }[];
  slotsPerEpoch?: number;
  computeUnitLimit?: number;
  deactivateFeatures?: string[];
  warpSlot?: number;
}

/** Surfpool's start, as the `surfpool` stand-in passes it (option `surfnet`). */
export interface SurfnetOptions {
  snapshots?: string[];
  anchorTestConfigs?: string[];
  /** Each runbook's id and, when it could not run as asked, why (its `errors`). */
  runbooks?: { id: string; errors: string[] | null }[];
}
