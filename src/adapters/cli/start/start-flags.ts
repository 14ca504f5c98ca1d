import { RPC_AUTH_MODES } from '../../../domain/auth/rpc-auth.ts';
import { DEFAULT_ENGINE, ENGINE_ENV, ENGINE_NAMES } from '../../../domain/ledger/engines.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../listen/defaults.ts';
import { POLICY_PROFILES } from '../../../domain/relay/policy-options.ts';
import { LOG_LEVELS } from '../../server/logger.ts';
import { DEFAULT_STATE_INTERVAL_MS } from '../../server/state-file.ts';

/** Every flag, its environment twin, and its help line. A flag wins over its twin. */
export const START_FLAGS = {
  port: { env: 'RELAY_EMULATOR_PORT', value: 'PORT', help: `TCP port; 0 picks a free one (default ${DEFAULT_PORT})` },
  host: {
    env: 'RELAY_EMULATOR_HOST',
    value: 'HOST',
    help: `address to bind (default ${DEFAULT_HOST}); any non-loopback bind requires X-Admin-Token on /__emulator`,
  },
  'public-url': {
    env: 'RELAY_EMULATOR_PUBLIC_URL',
    value: 'URL',
    help: 'origin clients use when it differs from the bind (base URL and RpcUrl are made from it)',
  },
  'api-key': { env: 'RELAY_EMULATOR_API_KEY', value: 'KEY', help: 'accepted X-API-Key, repeatable (env: comma-separated; default from fixtures)' },
  fixtures: { env: 'RELAY_EMULATOR_FIXTURES', value: 'DIR', help: 'fixtures directory (default: the bundled fixtures/)' },
  'state-file': {
    env: 'RELAY_EMULATOR_STATE_FILE',
    value: 'PATH',
    help: 'restore state from PATH (and its journal) before serving; journal every change before answering; snapshot periodically and on shutdown',
  },
  import: {
    env: 'RELAY_EMULATOR_IMPORT',
    value: 'FILE',
    help: 'start from the state in FILE, as `relay-emulator export` writes it (checked: a damaged file is refused); not with --state-file',
  },
  'state-interval': {
    env: 'RELAY_EMULATOR_STATE_INTERVAL',
    value: 'SECONDS',
    help: `seconds between snapshots that compact the journal; 0: only on shutdown and past 64 MiB of journal (default ${DEFAULT_STATE_INTERVAL_MS / 1000})`,
  },
  'kora-port': {
    env: 'RELAY_EMULATOR_KORA_PORT',
    value: 'PORT',
    help: "also serve Kora's JSON-RPC at the root of PORT, where the @solana/kora SDK looks by default (8080); 0 picks a free one",
  },
  'kora-config': {
    env: 'RELAY_EMULATOR_KORA_CONFIG',
    value: 'FILE',
    help: "the kora.toml Kora's JSON-RPC (<origin>/kora) reads, as Kora does; a key it cannot honour is refused by name (default: fixture mints, free)",
  },
  'kora-signers': {
    env: 'RELAY_EMULATOR_KORA_SIGNERS',
    value: 'FILE',
    help: "the signers.toml Kora signs with, as Kora reads it (memory signers, keys from their environment variables; default: the relay's fee payer)",
  },
  'token-ttl': { env: 'RELAY_EMULATOR_TOKEN_TTL', value: 'SECONDS', help: 'lifetime of the config Token (default 3600)' },
  'log-level': { env: 'RELAY_EMULATOR_LOG_LEVEL', value: 'LEVEL', help: `${LOG_LEVELS.join('|')} (default info: one line per request)` },
  'admin-token': { env: 'RELAY_EMULATOR_ADMIN_TOKEN', value: 'TOKEN', help: 'X-Admin-Token for /__emulator on a non-loopback bind (default: random, printed)' },
  'control-origin': {
    env: 'RELAY_EMULATOR_CONTROL_ORIGIN',
    value: 'ORIGIN',
    help: "a page origin that may call /__emulator from a browser besides the emulator's own, repeatable (env: comma-separated)",
  },
  'slot-time': {
    env: 'RELAY_EMULATOR_SLOT_TIME',
    value: 'MS',
    help:
      'wall-clock mode: a new slot every MS milliseconds (a validator: about 400), idle or not; at least 10 ' +
      '(default off: slots move with transactions and warps)',
  },
  timing: {
    env: 'RELAY_EMULATOR_TIMING',
    value: 'KIND',
    help:
      "instant: a sent transaction lands and is final at once (start's default, deterministic); " +
      'validator: as solana-test-validator (its default): a slot every --slot-time ms (400), a transaction lands 100 ms after it arrives, ' +
      'confirmed a slot later, finalized 32 slots later',
  },
  'journal-limit': {
    env: 'RELAY_EMULATOR_JOURNAL_LIMIT',
    value: 'N',
    help: 'requests the request journal keeps; 0 turns it off for throughput (default 1000)',
  },
  'rpc-auth': {
    env: 'RELAY_EMULATOR_RPC_AUTH',
    value: 'MODE',
    help:
      `when the RPC and PubSub need the config's Token: ${RPC_AUTH_MODES.join('|')} ` +
      '(default remote: only through a non-loopback bind; always: every request)',
  },
  'no-rpc-auth': {
    env: 'RELAY_EMULATOR_NO_RPC_AUTH',
    value: '',
    help: 'the same as --rpc-auth off: the RPC and PubSub answer without the Token wherever they are bound (env: 1/true)',
  },
  'skip-preflight': {
    env: 'RELAY_EMULATOR_SKIP_PREFLIGHT',
    value: '',
    help: 'submit relayed transactions without simulating them first: one that can only fail lands and costs the fee payer its fee (env: 1/true)',
  },
  'ready-file': {
    env: 'RELAY_EMULATOR_READY_FILE',
    value: 'PATH',
    help: "once ready, write the URLs, API key and fee payer there as JSON (the ready line's); removed on exit",
  },
  engine: {
    env: ENGINE_ENV,
    value: 'NAME',
    help: `ledger engine: ${ENGINE_NAMES.join('|')} (default ${DEFAULT_ENGINE}: mainnet's programs; bankrun runs SPL Token's 2024 build, see the README)`,
  },
  anchor: {
    env: 'RELAY_EMULATOR_ANCHOR',
    value: 'DIR',
    help:
      'load the Anchor workspace in DIR as `anchor test` loads it (its programs, [[test.genesis]], [test.validator] accounts); ' +
      "default: the working directory's Anchor.toml",
  },
  'no-anchor': {
    env: 'RELAY_EMULATOR_NO_ANCHOR',
    value: '',
    help: 'do not look for an Anchor.toml in the working directory (env: 1/true)',
  },
  watch: {
    env: 'RELAY_EMULATOR_WATCH',
    value: '',
    help: "reload a program loaded from a .so when the file changes (after anchor build), as Surfpool's --watch does (env: 1/true)",
  },
  'account-dir': {
    env: 'RELAY_EMULATOR_ACCOUNT_DIR',
    value: 'DIR',
    help: 'load every *.json in DIR as a `solana account --output json` dump, as solana-test-validator does; repeatable (env: PATH-style list)',
  },
  url: {
    env: 'RELAY_EMULATOR_CLONE_URL',
    value: 'URL_OR_MONIKER',
    help: 'the cluster the --clone flags fetch from (a URL, or mainnet-beta, devnet, testnet, localhost, or their first letter)',
  },
  clone: {
    env: 'RELAY_EMULATOR_CLONE',
    value: 'ADDRESS',
    help: 'an account of --url, fetched once into the clone cache and loaded from it after; repeatable (env: comma-separated)',
  },
  'maybe-clone': { env: 'RELAY_EMULATOR_MAYBE_CLONE', value: 'ADDRESS', help: 'as --clone, and a missing account is a warning; repeatable' },
  'clone-upgradeable-program': {
    env: 'RELAY_EMULATOR_CLONE_UPGRADEABLE_PROGRAM',
    value: 'ADDRESS',
    help: 'an upgradeable program of --url and its program data, deploy slot 0; repeatable',
  },
  'deep-clone-address-lookup-table': {
    env: 'RELAY_EMULATOR_DEEP_CLONE_ADDRESS_LOOKUP_TABLE',
    value: 'ADDRESS',
    help: 'a lookup table of --url and every address it lists; repeatable',
  },
  'clone-cache': { env: 'RELAY_EMULATOR_CLONE_CACHE', value: 'DIR', help: 'where clones are kept (default .relay-emulator/clones)' },
  'refresh-clones': { env: 'RELAY_EMULATOR_REFRESH_CLONES', value: '', help: 'fetch the clones again, replacing what the cache holds (env: 1/true)' },
  'accept-state-loss': {
    env: 'RELAY_EMULATOR_ACCEPT_STATE_LOSS',
    value: '',
    help: "start from a damaged state file's journal cut where the damage starts (a copy of each file it changes is kept), the loss stated (env: 1/true)",
  },
  'sponsor-costs': {
    env: 'RELAY_EMULATOR_SPONSOR_COSTS',
    value: 'FILE',
    help: 'on stop, write what the sponsor paid by test (X-Relay-Emulator-Test header, else the app) to FILE, as relay-emulator/vitest does',
  },
  genesis: {
    env: 'RELAY_EMULATOR_GENESIS',
    value: 'KIND',
    help:
      "app: the fixture app's wallets, mints and legacy apps beside the validator's accounts (start's default); " +
      "validator: a fresh validator's genesis, as test-validator starts (its faucet, identity, vote and stake accounts)",
  },
  policy: {
    env: 'RELAY_EMULATOR_POLICY',
    value: 'PROFILE',
    help: `fee-payer policy profile: ${POLICY_PROFILES.join('|')} (default faithful: sponsors what the vendor clients build)`,
  },
} as const;
