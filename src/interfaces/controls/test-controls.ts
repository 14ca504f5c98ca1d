import type { QueueOptions } from '../../domain/relay/relay-queue.ts';
import type { ControlsDeps } from './controls-deps.ts';
import type { TestControlMethods } from './control-types.ts';
import { diagnosticControls } from './diagnostic-controls.ts';
import { faucetControl } from './faucet.ts';
import type { FaultBook } from './faults.ts';
import { ledgerControls } from './ledger-controls.ts';
import { mintControl } from './mint-controls.ts';
import { nonceControl } from './nonce-controls.ts';
import { programControls } from './program-controls.ts';
import { queueControls } from './queue-controls.ts';
import type { RequestJournal } from './request-journal.ts';
import { stateControls } from '../../domain/snapshots/snapshots.ts';

export interface TestControlsOptions {
  deps: ControlsDeps;
  faults: FaultBook;
  journal: RequestJournal;
  /** The queue's start-up settings, restored on reset. */
  queue: Pick<QueueOptions, 'mode' | 'latencyMs'>;
}

/**
 * The test controls, as plain functions for the emulator object; every one is also a route under
 * /__emulator (src/interfaces/controls/routes). Parts that hold state register it here, in this order: mints,
 * then faults and the request journal.
 */
export function createTestControls(options: TestControlsOptions): TestControlMethods {
  const { deps, faults, journal } = options;
  const createMint = mintControl(deps);
  return {
    ...stateControls(deps, options.queue),
    faucet: faucetControl(deps),
    createMint,
    createNonceAccount: nonceControl(deps),
    ...ledgerControls(deps),
    ...queueControls(deps.queue),
    ...programControls(deps),
    ...diagnosticControls({ faults, journal, submissions: deps.submissions, state: deps.state, uiUrl: deps.config.uiUrl, programs: deps.programs }),
  };
}
