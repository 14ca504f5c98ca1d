import type { StateRegistry } from '../../domain/state/state-registry.ts';
import type { Submissions } from '../../domain/store/submissions.ts';
import type { TestControlMethods } from './control-types.ts';
import type { FaultBook } from './faults.ts';
import type { AppProgramNames } from '../rpc/program-errors.ts';
import type { RequestJournal } from './request-journal.ts';
import { transactionJournal } from './transaction-journal.ts';

type DiagnosticControls = Pick<TestControlMethods, 'injectFault' | 'faults' | 'clearFaults' | 'requestJournal' | 'transactionJournal'>;

/**
 * Armed faults and the journals. Faults and the request journal are test-time only: reset clears
 * them and the state file skips them; the transaction journal is a view of the submissions.
 */
export function diagnosticControls(options: {
  faults: FaultBook;
  journal: RequestJournal;
  submissions: Submissions;
  state: StateRegistry;
  uiUrl: string;
  /** The app's programs' names and errors, for each entry's errorText. */
  programs: AppProgramNames;
}): DiagnosticControls {
  const { faults, journal, submissions, state, uiUrl, programs } = options;
  state.register({ name: 'faults', snapshot: () => undefined, restore: () => undefined, reset: () => faults.clear() });
  state.register({ name: 'requestJournal', snapshot: () => undefined, restore: () => undefined, reset: () => journal.clear() });
  return {
    injectFault: (fault) => faults.arm(fault),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    requestJournal: (filter = {}) => journal.list(filter),
    transactionJournal: (filter = {}) => transactionJournal(submissions, filter, uiUrl, programs),
  };
}
