import type { QueueOptions } from '../../domain/relay/relay-queue.ts';
import type { EmulatorServices } from '../../assembly/services.ts';
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
import { stateControls } from '../../domain/state/snapshots.ts';

export interface TestControlsOptions {
  services: EmulatorServices;
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
  const { services, faults, journal } = options;
  const createMint = mintControl(services);
  return {
    ...stateControls(services, options.queue),
    faucet: faucetControl(services),
    createMint,
    createNonceAccount: nonceControl(services),
    ...ledgerControls(services),
    ...queueControls(services.queue),
    ...programControls(services),
    ...diagnosticControls({ faults, journal, submissions: services.submissions, state: services.state, uiUrl: services.config.uiUrl }),
  };
}
