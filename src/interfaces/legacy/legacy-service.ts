import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import type { SubmissionWorker } from '../../domain/relay/submission-worker.ts';
import type { ChangeReporter } from '../../domain/state/change-feed.ts';
import type { StatefulPart } from '../../domain/state/state-registry.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';
import type { Submissions } from '../../domain/store/submissions.ts';
import { airdrop, type AirdropRequest } from './airdrop.ts';
import { closeAccount } from './close-account.ts';
import { LegacyApps } from './legacy-apps.ts';
import { LegacyRecords, type LegacyTransaction } from './legacy-records.ts';
import { LegacyRelay, type LegacyCall } from './legacy-relay.ts';
import { legacySignatureLookup, type LegacySignatureLookup } from './signature-lookup.ts';

export interface LegacyServiceOptions {
  /** `fixtures.extra.apps` holds the apps (fixtures/apps.json); the fixture mint authority signs airdrops. */
  fixtures: Fixtures;
  /** The RPC URL apps report as their cluster endpoint unless they name one (and their explorer links name). */
  rpcUrl: string;
  /** The origin that serves the emulator's web UI, for explorer templates that name `{origin}`. */
  origin: string;
  relay: AcceptPipeline;
  worker: SubmissionWorker;
  ledger: Ledger;
  submissions: Submissions;
  tokenAccounts: TokenAccountIndex;
  history: HistoryIndex;
  now: () => Date;
  /** Hears every change of the legacy records (part `legacy`). Default: nobody. */
  report?: ChangeReporter;
}

/**
 * The legacy interface's domain: its apps, its transaction records, its relay lifecycle, and the
 * transactions it builds itself (airdrops, server-side closes), over the relay's pipeline and worker.
 */
export class LegacyService {
  readonly apps: LegacyApps;
  readonly records: LegacyRecords;
  readonly relay: LegacyRelay;
  readonly #options: LegacyServiceOptions;

  constructor(options: LegacyServiceOptions) {
    this.#options = options;
    this.apps = new LegacyApps(options.fixtures, { rpcUrl: options.rpcUrl, origin: options.origin });
    this.records = new LegacyRecords(options.report);
    this.relay = new LegacyRelay({
      relay: options.relay,
      worker: options.worker,
      ledger: options.ledger,
      now: options.now,
      apps: this.apps,
      records: this.records,
    });
  }

  /** Mints tokens of an airdrop mint to an owner; resolves with the signature once the commitment is reached. */
  airdrop(request: AirdropRequest): Promise<string> {
    return airdrop(this.#options, this.apps, request);
  }

  /** The server-side close of the owner's one token account of the call's mint. */
  closeAccount(call: LegacyCall, owner: string): Promise<LegacyTransaction> {
    return closeAccount({ ...this.#options, apps: this.apps, relay: this.relay }, call, owner);
  }

  /** A relayed transaction by signature, as the legacy transaction route answers it. */
  lookup(signature: string): LegacySignatureLookup {
    return legacySignatureLookup(this.#options, signature);
  }

  /** Resolves once every background finalization and event webhook is done. */
  settle(): Promise<void> {
    return this.relay.settle();
  }

  /** The legacy records as a stateful part (reset, state file). Apps come from fixtures and are not state. */
  statePart(): StatefulPart {
    return {
      name: 'legacy',
      snapshot: () => this.records.snapshot(),
      restore: (data) => this.records.restore(data),
      reset: () => this.records.clear(),
      replay: (changes) => this.records.replay(changes),
    };
  }
}
