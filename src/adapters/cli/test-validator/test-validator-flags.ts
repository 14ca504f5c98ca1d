/**
 * Every flag of solana-test-validator (Agave 3.1's `test_app`, and 2.x's `--gossip-host`), and what
 * `relay-emulator test-validator` does with each: one table, which the parser reads and
 * docs/test-validator.md lists (test/test-validator-docs.test.ts holds the page to it).
 *
 * - `honoured`: it does here what it does on a validator (the `does` text says how, where it differs);
 * - `noted`: accepted and meaningless here (a port nothing listens on, a ledger size); the start says
 *   so in one line;
 * - `refused`: it cannot be honoured offline or in process; the start refuses it in one line naming
 *   it, and nothing starts.
 */
export type ValidatorFlagKind = 'honoured' | 'noted' | 'refused';

export interface ValidatorFlag {
  /** The long name, without `--`. */
  name: string;
  /** Other names it answers to: a one-letter short form (`-l`) or an alias (`--max-compute-units`). */
  aliases?: readonly string[];
  /** The names of its values; `optional`: the last one may be left out (`--warp-slot [SLOT]`). */
  values: readonly string[];
  optional?: boolean;
  /** May be given more than once. */
  repeats?: boolean;
  kind: ValidatorFlagKind;
  /** What it does here, for the docs and the help. */
  does: string;
}

export const VALIDATOR_FLAGS: readonly ValidatorFlag[] = [
  {
    name: 'ledger',
    aliases: ['l'],
    values: ['DIR'],
    kind: 'honoured',
    does: 'the state lives in DIR (default `test-ledger`) and survives a restart or a `kill -9`, as a ledger does',
  },
  { name: 'reset', aliases: ['r'], values: [], kind: 'honoured', does: 'start afresh: the emulator’s files in the ledger folder are removed first' },
  { name: 'quiet', aliases: ['q'], values: [], kind: 'honoured', does: 'no banner: only warnings and errors, on stderr' },
  { name: 'log', values: [], kind: 'honoured', does: 'log to stderr instead of `LEDGER/validator.log`' },
  { name: 'config', aliases: ['C'], values: ['PATH'], kind: 'honoured', does: 'the Solana CLI config whose `keypair_path` names the default `--mint`' },
  {
    name: 'mint',
    values: ['PUBKEY'],
    kind: 'honoured',
    does: '500,000,000 SOL at genesis; default the CLI’s keypair (`~/.config/solana/id.json`) when there is one',
  },
  { name: 'rpc-port', values: ['PORT'], kind: 'honoured', does: 'the JSON-RPC, the relay, Kora and the UI on PORT (default 8899), PubSub on PORT + 1' },
  {
    name: 'bind-address',
    values: ['HOST'],
    kind: 'honoured',
    does: 'the address to listen on (default 127.0.0.1); a non-loopback one serves the RPC to the network, the controls only with X-Admin-Token',
  },
  {
    name: 'faucet-port',
    values: ['PORT'],
    kind: 'noted',
    does: '`requestAirdrop` is answered by the RPC, from the emulator’s faucet; no faucet port is opened',
  },
  {
    name: 'faucet-sol',
    values: ['SOL'],
    kind: 'honoured',
    does: 'the faucet’s SOL at genesis (default 1,000,000); `requestAirdrop` pays from it, its key `LEDGER/faucet-keypair.json`',
  },
  { name: 'faucet-time-slice-secs', values: ['SECS'], kind: 'noted', does: 'airdrops are not rate-limited' },
  { name: 'faucet-per-time-sol-cap', values: ['SOL'], optional: true, kind: 'noted', does: 'airdrops are not capped' },
  { name: 'faucet-per-request-sol-cap', values: ['SOL'], optional: true, kind: 'noted', does: 'airdrops are not capped' },
  { name: 'bpf-program', values: ['ADDRESS_OR_KEYPAIR', 'SBF_PROGRAM.SO'], repeats: true, kind: 'honoured', does: 'a program under BPF Loader 2, at genesis' },
  {
    name: 'upgradeable-program',
    values: ['ADDRESS_OR_KEYPAIR', 'SBF_PROGRAM.SO', 'UPGRADE_AUTHORITY'],
    repeats: true,
    kind: 'honoured',
    does: 'a program under the upgradeable loader with its program data (`none`: no authority)',
  },
  {
    name: 'account',
    values: ['ADDRESS', 'DUMP.JSON'],
    repeats: true,
    kind: 'honoured',
    does: 'an account from a `solana account --output json` dump (`-`: its own address)',
  },
  { name: 'account-dir', values: ['DIRECTORY'], repeats: true, kind: 'honoured', does: 'every `*.json` dump in DIRECTORY' },
  { name: 'url', aliases: ['u'], values: ['URL_OR_MONIKER'], kind: 'honoured', does: 'the cluster the `--clone` flags fetch from, once, into the clone cache' },
  {
    name: 'clone',
    aliases: ['c'],
    values: ['ADDRESS'],
    repeats: true,
    kind: 'honoured',
    does: 'an account fetched from `--url` (once; later starts read the cache)',
  },
  { name: 'maybe-clone', values: ['ADDRESS'], repeats: true, kind: 'honoured', does: 'as `--clone`, and a missing account is a warning' },
  {
    name: 'clone-upgradeable-program',
    values: ['ADDRESS'],
    repeats: true,
    kind: 'honoured',
    does: 'a program and its program data from `--url`, its deploy slot set to 0',
  },
  {
    name: 'deep-clone-address-lookup-table',
    values: ['ADDRESS'],
    repeats: true,
    kind: 'honoured',
    does: 'a lookup table from `--url` and every address it lists',
  },
  {
    name: 'clone-feature-set',
    values: [],
    kind: 'refused',
    does: 'the emulator runs every feature but those `--deactivate-feature` names; it does not copy a cluster’s',
  },
  {
    name: 'warp-slot',
    aliases: ['w'],
    values: ['SLOT'],
    optional: true,
    kind: 'honoured',
    does: 'the ledger starts at SLOT (without SLOT, at the `--url` cluster’s slot)',
  },
  {
    name: 'slots-per-epoch',
    values: ['SLOTS'],
    kind: 'honoured',
    does: 'epochs of SLOTS slots (at least 32): the EpochSchedule sysvar, the Clock’s epoch and the RPC’s epoch answers',
  },
  { name: 'ticks-per-slot', values: ['TICKS'], kind: 'noted', does: 'the emulator counts slots, not ticks' },
  { name: 'inflation-fixed', values: ['RATE'], kind: 'noted', does: 'no rewards are paid: the one validator has no stake' },
  {
    name: 'compute-unit-limit',
    aliases: ['max-compute-units'],
    values: ['COMPUTE_UNITS'],
    kind: 'honoured',
    does: 'the most compute units a transaction may use, on both engines',
  },
  { name: 'deactivate-feature', values: ['FEATURE_PUBKEY'], repeats: true, kind: 'honoured', does: 'the feature is off in the runtime, on both engines' },
  { name: 'transaction-account-lock-limit', values: ['NUM_ACCOUNTS'], kind: 'noted', does: 'the runtime’s own limit (64 accounts) holds' },
  { name: 'log-messages-bytes-limit', values: ['BYTES'], kind: 'noted', does: 'the runtime’s own log limit (10,000 bytes) holds' },
  {
    name: 'limit-ledger-size',
    values: ['SHRED_COUNT'],
    optional: true,
    kind: 'noted',
    does: 'the emulator keeps what it records in memory and in its state file, not shreds',
  },
  { name: 'gossip-port', values: ['PORT'], kind: 'noted', does: 'there is no gossip: one node' },
  { name: 'gossip-host', values: ['HOST'], kind: 'noted', does: 'there is no gossip: one node (Agave 2.x’s flag)' },
  { name: 'dynamic-port-range', values: ['MIN_PORT-MAX_PORT'], kind: 'noted', does: 'the emulator opens the RPC port and the next, nothing else' },
  { name: 'advertised-ip', values: ['HOST'], kind: 'noted', does: 'there is no gossip to advertise to' },
  { name: 'account-index', values: ['INDEX'], repeats: true, kind: 'noted', does: 'every account scan is indexed already' },
  { name: 'enable-rpc-transaction-history', values: [], kind: 'noted', does: 'history is always on (as on Agave 3)' },
  { name: 'enable-extended-tx-metadata-storage', values: [], kind: 'noted', does: 'transactions are kept with all their metadata' },
  { name: 'rpc-pubsub-enable-block-subscription', values: [], kind: 'noted', does: '`blockSubscribe` is not served' },
  { name: 'rpc-pubsub-enable-vote-subscription', values: [], kind: 'noted', does: 'there are no votes' },
  { name: 'rpc-pubsub-max-active-subscriptions', values: ['NUMBER'], kind: 'noted', does: 'subscriptions are not counted' },
  { name: 'rpc-pubsub-queue-capacity-items', values: ['NUMBER'], kind: 'noted', does: 'notifications are not queued' },
  { name: 'rpc-pubsub-queue-capacity-bytes', values: ['BYTES'], kind: 'noted', does: 'notifications are not queued' },
  { name: 'rpc-pubsub-worker-threads', values: ['NUMBER'], kind: 'noted', does: 'PubSub runs in the emulator’s one process' },
  { name: 'rpc-pubsub-notification-threads', values: ['NUM_THREADS'], kind: 'noted', does: 'PubSub runs in the emulator’s one process' },
  {
    name: 'geyser-plugin-config',
    aliases: ['accountsdb-plugin-config'],
    values: ['FILE'],
    repeats: true,
    kind: 'refused',
    does: 'a Geyser plugin is a native library of Agave’s; none can load here',
  },
  { name: 'enable-rpc-bigtable-ledger-storage', values: [], kind: 'refused', does: 'BigTable is a network service' },
  { name: 'enable-bigtable-ledger-upload', values: [], kind: 'refused', does: 'BigTable is a network service' },
  { name: 'rpc-bigtable-instance', values: ['INSTANCE_NAME'], kind: 'refused', does: 'BigTable is a network service' },
  { name: 'rpc-bigtable-app-profile-id', values: ['APP_PROFILE_ID'], kind: 'refused', does: 'BigTable is a network service' },
];

/** Each flag by every name it answers to (`ledger`, `l`, `max-compute-units`). */
export const VALIDATOR_FLAG_NAMES: ReadonlyMap<string, ValidatorFlag> = new Map(
  VALIDATOR_FLAGS.flatMap((flag) => [flag.name, ...(flag.aliases ?? [])].map((name) => [name, flag] as const)),
);
