// Over 250 lines: the one place that wires every part of an emulator together, in the order they depend on each other.
import { PublicKey } from '@solana/web3.js';
import type { HttpHandler } from 'msw';
import { currentRoom } from '../interfaces/current/current-room.ts';
import { legacyRoom } from '../interfaces/legacy/legacy-room.ts';
import { metaRoom } from '../interfaces/meta/meta-room.ts';
import { uiRoom } from '../interfaces/ui/ui-room.ts';
import { controlsRoom } from '../interfaces/controls/controls-room.ts';
import { ApiKeys } from '../domain/auth/api-keys.ts';
import { rpcAuthMode } from '../domain/auth/rpc-auth.ts';
import { TokenIssuer } from '../domain/auth/tokens.ts';
import { AdminGuard } from '../interfaces/controls/admin-guard.ts';
import type { TestControlMethods } from '../interfaces/controls/control-types.ts';
import { fileGenesisTokenAccounts, registerCoreState } from '../domain/snapshots/core-parts.ts';
import { FaultBook } from '../interfaces/controls/faults.ts';
import { RequestJournal } from '../interfaces/controls/request-journal.ts';
import { WalletLog, type WalletLogEntry, type WalletLogInput } from '../interfaces/ui/inspector/wallet-log.ts';
import { createTestControls } from '../interfaces/controls/test-controls.ts';
import { cors } from '../core/cors.ts';
import type { AnyRoom } from '../core/room.ts';
import { createEmitter } from '../domain/events.ts';
import { createCore, type Core, type ExchangeObserver, type FetchHandler } from '../core/create-fetch.ts';
import { observeExchanges } from '../core/observe-exchanges.ts';
import { createEd25519Signer } from '../base/crypto/ed25519.ts';
import { addressOf } from '../base/crypto/key-cache.ts';
import { readAnchorWorkspace } from '../domain/fixtures/anchor-workspace.ts';
import { readProgramIdl } from '../domain/fixtures/program-idl.ts';
import { appGenesisAccounts, loadAppGenesis } from '../domain/fixtures/app-genesis.ts';
import { genesisAccounts, keypairOf, loadFixtures } from '../domain/fixtures/load-fixtures.ts';
import { validatorCluster } from '../domain/fixtures/validator-genesis.ts';
import type { GenesisAccount } from '../domain/ledger/engine.ts';
import { LiveFeed } from '../interfaces/ui/inspector/live-feed.ts';
import { engineFactory } from '../domain/ledger/engines.ts';
import { Ledger, VALIDATOR_COMMITMENTS } from '../domain/ledger/ledger.ts';
import { LoadedPrograms } from '../domain/ledger/loaded-programs.ts';
import { programsKoraRefuses, unansweredPrograms } from '../domain/ledger/program-allow-lists.ts';
import { checkSlotTime, startSlotTicker } from '../domain/ledger/slot-ticker.ts';
import { LegacyService } from '../interfaces/legacy/legacy-service.ts';
import { validateRateLimit, type RateLimitOptions } from '../domain/limits/rate-limit-options.ts';
import { RateLimiter } from '../domain/limits/rate-limiter.ts';
import { createHandlers } from '../adapters/msw/create-handlers.ts';
import { requestBinder } from '../domain/openapi/binding.ts';
import type { RelayEmulatorOptions } from './options.ts';
import { AcceptPipeline } from '../domain/relay/accept-pipeline.ts';
import { resolvePolicy } from '../domain/relay/policy-options.ts';
import { DEFAULT_QUEUE_OPTIONS, RelayQueue } from '../domain/relay/relay-queue.ts';
import { SubmissionWorker, type SubmissionJob } from '../domain/relay/submission-worker.ts';
import { rpcRoom } from '../interfaces/rpc/rpc-room.ts';
import { koraRoom } from '../interfaces/kora/kora-room.ts';
import { listenCore, servingGate, type CoreListener } from '../adapters/listen/core-listener.ts';
import type { EmulatorConfig, EmulatorServices } from './services.ts';
import { ChangeFeed } from '../domain/state/change-feed.ts';
import { StateRegistry } from '../domain/state/state-registry.ts';
import { HistoryIndex } from '../domain/store/history-index.ts';
import { TokenAccountIndex } from '../domain/store/token-account-index.ts';
import { Submissions } from '../domain/store/submissions.ts';
import { readGenesisSettings, withFunds } from '../domain/fixtures/genesis-settings.ts';
import { clonedDumps } from '../domain/fixtures/clone-cache.ts';
import { clusterUrl } from '../domain/fixtures/cluster-url.ts';
import { surfnetCheatcodes, type CheatcodeParts } from '../interfaces/controls/surfnet-cheatcodes.ts';
import { toAccountState } from '../domain/ledger/account-state.ts';
import { costLabels } from '../core/cost-labels.ts';
import { sponsorCostsByLabel, type SponsorCost } from '../domain/relay/sponsor-costs.ts';
import { InternalError, isInternalError } from '../base/errors/internal-error.ts';

/** The base URL with option `loopback: false` and no `baseUrl` (the node server's default address). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787/api';
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
export const DEFAULT_GENESIS_TIME = new Date('2026-01-01T00:00:00Z');
export const DEFAULT_JOURNAL_LIMIT = 1000;
/** Wall time one slot stands for, in block times. */
const SLOT_MS = 400;
/** The slot time of validator timing: a validator's, about 400 ms (Agave's DEFAULT_MS_PER_SLOT). */
const VALIDATOR_SLOT_MS = SLOT_MS;

export interface RelayEmulator extends TestControlMethods {
  /** The single core: every route, the RPC and the controls, as a fetch function (CORS and the request journal included). */
  fetch: FetchHandler;
  /** MSW handlers for the base URL, the RPC URL, the loopback listener and the emulator's own routes. */
  handlers: HttpHandler[];
  config: EmulatorConfig;
  /**
   * The loopback listener's origin, `http://127.0.0.1:<port>`: the same core over real HTTP, PubSub
   * (WebSocket) included, for clients that go around MSW. `config.rpcUrl` is `<loopbackOrigin>/rpc`
   * unless option `rpcUrl` names another. Null with option `loopback: false`.
   */
  loopbackOrigin: string | null;
  /** The emulator's parts, for advanced tests and for adapters. */
  services: EmulatorServices;
  /** Resolves once the queue is empty and everything queued has reached a final status. */
  settle(): Promise<void>;
  /** Hands a WebSocket upgrade to the interface that serves its path (the RPC's PubSub); false when none does. */
  upgrade: Core['upgrade'];
  /** Subscribes to every request/response exchange. Returns an unsubscribe function. */
  observe(observer: ExchangeObserver): () => void;
  /** Who may call the /__emulator routes: open in process; the server requires a token on non-loopback binds. */
  admin: AdminGuard;
  /** What start did that a user should know, one line each: the clones it loaded, from where, fetched when. */
  notes: readonly string[];
  /**
   * What sponsored transactions cost their fee payer (the relay's, Kora's signers), by the label
   * each was accepted under: the test that sent it (`X-Relay-Emulator-Test`, or the vitest test
   * running in process), else its app. `relay-emulator/vitest` and `--sponsor-costs` report it.
   */
  sponsorCosts(): SponsorCostEntry[];
  /**
   * Keeps what a dapp asked of a test wallet (relay-emulator/wallet's WalletRequest) under the test's
   * label, for the web UI to list beside that test's relays (GET /__emulator/wallet-requests).
   * relay-emulator/playwright's fixture records every request of its wallet; reset() forgets them.
   * Null (nothing kept) for a method no wallet has.
   */
  recordWalletRequest(request: WalletLogInput, test?: string | null): WalletLogEntry | null;
  /**
   * What start warned of, one line each (also written to stderr): a program Kora's allowed_programs
   * or policy.extraPrograms allow that nothing on the ledger runs, and which of two dumps of one
   * address in an account directory was loaded.
   */
  warnings: readonly string[];
  close(): Promise<void>;
}

/**
 * Creates an emulator of the relay service, in process, over a fresh ledger seeded from fixtures.
 * Unless option `loopback` is false it also listens on an ephemeral 127.0.0.1 port first, so that
 * RpcUrl can name that port: whatever HTTP client reaches it gets the same core.
 */
export async function createRelayEmulator(options: RelayEmulatorOptions = {}): Promise<RelayEmulator> {
  if (options.slotTimeMs !== undefined) checkSlotTime(options.slotTimeMs);
  if (options.timing !== undefined && options.timing !== 'instant' && options.timing !== 'validator')
    throw new RangeError(`timing must be 'instant' or 'validator', not ${JSON.stringify(options.timing)}`);
  // Until the emulator is made, /health answers 503 `starting` and other requests wait.
  const { gate, open } = servingGate();
  // Two consecutive ports: web3.js looks for PubSub on the RPC's port + 1.
  const loopback = options.loopback === false ? null : await listenCore({ host: '127.0.0.1', port: 0, gate, unref: true, nextPort: 'required' });
  try {
    const emulator = await assemble(options, loopback);
    open(emulator);
    return emulator;
  } catch (error) {
    open(null);
    await loopback?.close();
    throw error;
  }
}

async function assemble(options: RelayEmulatorOptions, loopback: CoreListener | null): Promise<RelayEmulator> {
  const loopbackOrigin = loopback && `http://127.0.0.1:${loopback.port}`;
  const pubsubOrigin = loopback?.nextPort ? `http://127.0.0.1:${loopback.nextPort}` : null;
  // The validator the emulator stands for, and the fixtures as its genesis has them (a `validator` genesis leaves the fixture app out).
  const cluster = validatorCluster(typeof options.fixtures === 'object' ? options.fixtures : loadFixtures(options.fixtures), options.cluster);
  const { fixtures } = cluster;
  const baseUrl = (options.baseUrl ?? (loopbackOrigin ? `${loopbackOrigin}/api` : DEFAULT_BASE_URL)).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const feePayer = createEd25519Signer(keypairOf(fixtures.relay.feePayer).secretKey);
  const apiKeys = options.apiKeys ?? fixtures.relay.apiKeys;
  const policy = resolvePolicy(options.policy);

  const config: EmulatorConfig = {
    baseUrl,
    rpcUrl: options.rpcUrl ?? `${loopbackOrigin ?? new URL(baseUrl).origin}/rpc`,
    koraUrl: options.koraUrl ?? `${loopbackOrigin ?? new URL(baseUrl).origin}/kora`,
    // Where web3.js looks by itself (the RPC's port + 1); the RPC's own port answers WebSockets too.
    pubsubUrl: options.pubsubUrl ?? (pubsubOrigin && !options.rpcUrl ? `${pubsubOrigin.replace(/^http/, 'ws')}/rpc` : null),
    apiKey: apiKeys[0] ?? '',
    feePayer: fixtures.relay.feePayer.publicKey,
    identity: cluster.identity,
    voteAccount: cluster.voteAccount,
    rpcEnvironment: options.rpcEnvironment ?? fixtures.relay.rpcEnvironment,
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    rpcAuth: rpcAuthMode(options.rpcAuth),
    // Known once the ledger has started its engine (below).
    engine: '',
    policyProfile: policy.profile,
    // In process the loopback listener serves it (a browser cannot reach an MSW base URL).
    uiUrl: `${loopbackOrigin ?? new URL(baseUrl).origin}/`,
  };

  // The ledger, and the stores the emulator keeps beside it. Each reports its changes to the feed
  // (the state file's write-ahead journal listens; in process nobody does).
  const events = createEmitter();
  const changes = new ChangeFeed(events);
  const fixtureAccounts = genesisAccounts(fixtures);
  // The app's programs and account dumps: read and checked whole before anything starts.
  const workspace = options.anchor === undefined ? null : readAnchorWorkspace(options.anchor, { testConfigs: options.surfnet?.anchorTestConfigs });
  // Cloned accounts: from the clone cache, else fetched once (and kept there).
  const clones = [
    ...(options.clone ? [await clonedDumps(options.clone)] : []),
    ...(workspace?.clone
      ? [
          await clonedDumps({
            url: clusterUrl(workspace.clone.url),
            anchorClones: workspace.clone.accounts,
            ...(options.clone?.cache ? { cache: options.clone.cache } : {}),
          }),
        ]
      : []),
  ];
  const app = await loadAppGenesis(
    {
      programs: options.programs ?? [],
      ...(workspace ? { workspace: { file: workspace.file, programs: workspace.programs } } : {}),
      accounts: [...(workspace?.accounts ?? []), ...(options.accounts ?? []), ...clones.flatMap(({ files }) => files)],
      accountDirs: [...(workspace?.accountDirs ?? []), ...(options.accountDirs ?? [])],
      made: workspace?.generated ?? [],
      snapshots: options.surfnet?.snapshots ?? [],
    },
    new Map(fixtureAccounts.map(({ address }) => [addressOf(address), 'the fixtures'])),
  );
  // The app's accounts after the fixtures': a dump that names a fixture account replaces it.
  const appAccounts = appGenesisAccounts(app);
  const replaced = new Set(appAccounts.map(({ address }) => addressOf(address)));
  const settings = readGenesisSettings({ ...workspace?.genesis, ...options.genesis });
  // The validator's accounts last: its stake config replaces a dump of it, as Agave's genesis does.
  const byAddress = new Map<string, GenesisAccount>();
  for (const entry of [...fixtureAccounts.filter(({ address }) => !replaced.has(addressOf(address))), ...appAccounts, ...cluster.accounts]) {
    byAddress.set(addressOf(entry.address), entry);
  }
  // Surfpool's airdrops come before its snapshots: an address a snapshot sets holds what the snapshot says.
  const genesis = withFunds(
    [...byAddress.values()],
    settings.fund.filter(({ address }) => !app.snapshotted.has(addressOf(address))),
  );
  const genesisTime = options.genesisTime ?? DEFAULT_GENESIS_TIME;
  const validatorTiming = options.timing === 'validator';
  const slotTimeMs = options.slotTimeMs ?? (validatorTiming ? VALIDATOR_SLOT_MS : undefined);
  // A program the engine cannot load is refused at genesis, naming its address: named here by its file too.
  const ledger = await Ledger.create({
    engine: engineFactory(options.engine),
    genesis,
    settings: settings.engine,
    genesisTime,
    slotMs: SLOT_MS,
    // Validator timing: slots open with time alone, and commitments lag as a lone validator's do.
    ...(validatorTiming ? { commitmentDepths: VALIDATOR_COMMITMENTS, transactionsPerSlot: Number.MAX_SAFE_INTEGER } : {}),
    ...(options.transactionsPerSlot === undefined ? {} : { transactionsPerSlot: options.transactionsPerSlot }),
    // Lamports the test controls add or remove come from, and go back to, the faucet fixture key.
    reservoir: new PublicKey(fixtures.relay.faucet.publicKey),
    changes,
    events,
  }).catch((error: unknown) => {
    // The program's address is in the error's context: its file is named beside it.
    const address = isInternalError(error, 'PROGRAM_INVALID') ? error.context.address : undefined;
    const named = address === undefined ? undefined : app.programs.find((program) => addressOf(program.programId) === address);
    if (named?.path) throw new InternalError('PROGRAM_INVALID', { problem: `${named.path}: ${(error as Error).message}`, address: address! });
    throw error;
  });
  config.engine = ledger.engineName;
  // --warp-slot: the ledger starts there (a state file restored later only moves it further).
  if (settings.warpSlot !== null && settings.warpSlot > ledger.clock().slot) await ledger.warp({ slot: settings.warpSlot });
  const programs = new LoadedPrograms(
    ledger,
    { programs: [...app.programs, ...app.dumpedPrograms], dumps: app.accounts.map(({ address, file }) => ({ address: addressOf(address), file })) },
    changes.reporter('programs'),
  );
  // Part `records` in the state file: the submissions' key from before they were named so.
  const submissions = new Submissions(changes.reporter('submissions'));
  const history = new HistoryIndex(changes.reporter('history'));
  const tokenAccounts = new TokenAccountIndex(changes.reporter('tokenAccounts'));
  fileGenesisTokenAccounts(genesis, tokenAccounts);

  // The relay: the accept pipeline enqueues; the queue hands each job to the submission worker.
  // Armed faults hook into both (the pipeline before any check, the worker before the ledger).
  const faults = new FaultBook();
  const worker = new SubmissionWorker({
    ledger,
    submissions,
    history,
    tokenAccounts,
    finalizeMs: options.queue?.finalizeMs ?? 0,
    // Validator timing: a transaction lands a quarter of a slot (100 ms) after it arrived (submission-worker.ts).
    ...(validatorTiming && slotTimeMs !== undefined ? { landingMs: slotTimeMs / 4 } : {}),
    preflight: options.skipPreflight !== true,
    beforeSubmit: faults.hooks.beforeSubmit,
  });
  const queueOptions = { ...DEFAULT_QUEUE_OPTIONS, ...options.queue };
  const queue = new RelayQueue<SubmissionJob>(worker.process, queueOptions, changes.reporter('queue'));
  const relay = new AcceptPipeline({
    ledger,
    submissions,
    queue,
    feePayer,
    policy,
    appPrograms: programs,
    now,
    beforeRelay: faults.hooks.beforeRelay,
  });
  // The legacy interface's domain, over the same pipeline and worker.
  const legacy = new LegacyService({
    fixtures,
    rpcUrl: config.rpcUrl,
    origin: new URL(config.uiUrl).origin,
    relay,
    worker,
    ledger,
    submissions,
    tokenAccounts,
    history,
    now,
    report: changes.reporter('legacy'),
  });

  const services: EmulatorServices = {
    config,
    fixtures,
    ledger,
    programs,
    relay,
    queue,
    worker,
    legacy,
    submissions,
    history,
    tokenAccounts,
    apiKeys: new ApiKeys(apiKeys),
    tokens: new TokenIssuer({
      signingKey: createEd25519Signer(keypairOf(fixtures.relay.tokenSigner).secretKey).keyObject,
      issuer: 'relay-emulator',
      audience: baseUrl,
      ttlSeconds: config.tokenTtlSeconds,
      now,
    }),
    binder: requestBinder(),
    state: new StateRegistry(),
    changes,
    events,
    now,
    rateLimiter: rateLimiterFor(options.rateLimit ?? null),
  };

  // Stateful parts, for reset and the state file. The core's parts first: restore runs in
  // registration order and later parts may lean on them. The controls register their own.
  registerCoreState({ deps: services, genesis, genesisTime, slotMs: SLOT_MS });
  services.state.register(programs.statePart());
  services.state.register(legacy.statePart());
  services.state.register({ name: 'rateLimit', snapshot: () => undefined, restore: () => undefined, reset: () => services.rateLimiter?.reset() });
  const journal = new RequestJournal({ maxEntries: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT });
  const wallets = new WalletLog(now);
  services.state.register({ name: 'walletRequests', snapshot: () => undefined, restore: () => undefined, reset: () => wallets.clear() });
  const admin = new AdminGuard();
  const controls = createTestControls({ deps: services, faults, journal, queue: queueOptions });

  events.on('exchange', journal.record);
  const observe = (observer: ExchangeObserver) => events.on('exchange', observer);
  // The web UI's live updates: they listen to the emitter only while a browser watches.
  const feed = new LiveFeed(events);
  // Wall-clock mode's slots (--slot-time), which Surfpool's surfnet_pauseClock and surfnet_resumeClock stop and start.
  const startTicker = (ms: number) => startSlotTicker(ledger, ms, (error) => console.error('relay-emulator: a slot tick failed', error));
  let ticker = slotTimeMs === undefined ? null : startTicker(slotTimeMs);
  const genesisByAddress = new Map(genesis.map(({ address, account }) => [addressOf(address), account]));
  const startedAtSeconds = Math.floor(Date.now() / 1000);
  // surfnet_setSupply's figures, which getSupply answers.
  const supply: CheatcodeParts['supply'] = { current: null };
  const cheatcodeParts: CheatcodeParts = {
    controls,
    guard: admin,
    genesisAccount(address) {
      const account = genesisByAddress.get(address);
      return account ? toAccountState(account) : null;
    },
    clock: {
      pause() {
        void ticker?.stop();
        ticker = null;
      },
      resume() {
        if (slotTimeMs !== undefined && ticker === null) ticker = startTicker(slotTimeMs);
      },
    },
    rentExempt: (length) => ledger.minimumBalanceForRentExemption(length),
    slot: () => Number(ledger.clock().slot),
    // Each runbook ran as this emulator started: complete when it is ready (Anchor 1.x waits for that).
    runbookExecutions: () =>
      (options.surfnet?.runbooks ?? []).map(({ id, errors }) => ({ startedAt: startedAtSeconds, completedAt: startedAtSeconds, runbookId: id, errors })),
    supply,
    idls: {
      loaded: (programId) => programs.idls.get(programId)?.source ?? null,
      register: (programId, idl) => {
        try {
          programs.idls.set(programId, readProgramIdl(idl, `the IDL registered for ${programId}`));
        } catch {
          // An IDL the emulator cannot read for names still answers surfnet_getActiveIdl.
        }
      },
    },
  };
  // Kora's JSON-RPC at koraUrl and /kora, signing as the relay's fee payer.
  const kora = await koraRoom(services, feePayer, options.kora);
  // The interfaces, each with its routes, middleware and the parts it asks for. Kora's endpoint is
  // matched before the RPC's (koraUrl may name the RPC's path on another origin); legacy routes
  // before current ones (two share a path and claim a request by its body).
  // Who a sponsored transaction costs: the relay's fee payer and Kora's signers (the sponsor-cost report, the UI's rows).
  const sponsors: ReadonlySet<string> = new Set([config.feePayer, ...kora.signerAddresses]);
  const rooms: AnyRoom[] = [
    kora.room,
    rpcRoom({ ...services, supply, extraMethods: surfnetCheatcodes(cheatcodeParts) }),
    legacyRoom(services),
    currentRoom(services),
    metaRoom(services),
    controlsRoom(services, { controls, guard: admin }),
    uiRoom({ ...services, sponsors }, { journal, feed, wallets, guard: admin }),
  ];
  const core = createCore({
    rooms,
    basePath: new URL(baseUrl).pathname.replace(/\/+$/, ''),
    maxBodyBytes: config.maxBodyBytes,
    // Around every request: the exchange is observed outermost (a preflight answered by CORS is an
    // exchange too); the control routes' CORS is closed (their guard).
    middleware: [observeExchanges({ events, wantsBodies: journal.wants }), cors({ guards: [admin] }), costLabels()],
    // Nothing is answered before it is durable (a state file's journal; in process nothing is pending).
    durability: changes,
  });
  // What start chose for the user, or will fail later: one line each, on stderr and in `warnings`.
  const warnings = [
    ...(workspace?.warnings ?? []),
    ...clones.flatMap((clone) => clone.warnings),
    ...app.warnings,
    ...(await unansweredPrograms(ledger, [
      { by: "Kora's allowed_programs", programs: kora.allowedPrograms },
      { by: 'policy.extraPrograms', programs: policy.extraPrograms },
    ])),
    ...programs.warnings,
    ...programsKoraRefuses(programs.list(), kora.allowedPrograms, "relay-emulator's docs/kora-app-programs.toml"),
  ];
  for (const warning of warnings) console.warn(`relay-emulator: ${warning}`);
  const { fetch } = core;
  let handlers: HttpHandler[] | undefined;

  const emulator: RelayEmulator = {
    fetch,
    upgrade: core.upgrade,
    // Made on first use: msw loads only for an emulator mounted with it.
    get handlers() {
      handlers ??= createHandlers(fetch, {
        ...config,
        loopbackOrigin,
        pubsubOrigin,
        rootPaths: rooms.flatMap((room) => room.routes?.root ?? []).map((route) => route.path),
      });
      return handlers;
    },
    config,
    loopbackOrigin,
    services,
    admin,
    warnings,
    notes: clones.map((clone) => clone.summary),
    sponsorCosts: () => [...sponsorCostsByLabel(submissions.all(), sponsors).entries()].map(([label, cost]) => ({ label, ...cost })),
    recordWalletRequest(request, test = null) {
      const entry = wallets.record(request, test);
      if (entry) events.emit('wallet-request', entry.id);
      return entry;
    },
    ...controls,
    async settle() {
      await queue.settle();
      await worker.settleFinalizations();
      // Legacy relays finalize and deliver their event webhooks in the background.
      await legacy.settle();
    },
    observe,
    async close() {
      emulators.delete(emulator);
      await ticker?.stop();
      await loopback?.close();
      // No job in the ledger when it closes: the running one (a step's or a flush's too) is recorded first.
      queue.hold();
      await queue.idle();
      queue.clear();
      await worker.settleFinalizations();
      await ledger.close();
    },
  };
  emulators.add(emulator);
  return emulator;
}

/** The per-API-key rate limiter of option `rateLimit`, validated at start-up; null when off. */
function rateLimiterFor(options: RateLimitOptions | null): RateLimiter | null {
  const valid = validateRateLimit(options);
  return valid === null ? null : new RateLimiter(valid);
}

/** Every emulator open in this process, whichever copy of the package made it: what `relay-emulator/vitest` reads after each test. */
export const EMULATORS = Symbol.for('relay-emulator.emulators');
const emulators: Set<RelayEmulator> =
  ((globalThis as Record<symbol, unknown>)[EMULATORS] as Set<RelayEmulator> | undefined) ??
  (((globalThis as Record<symbol, unknown>)[EMULATORS] = new Set<RelayEmulator>()) as Set<RelayEmulator>);

/** One label's line of {@link RelayEmulator.sponsorCosts}. */
export interface SponsorCostEntry extends SponsorCost {
  label: string;
}
