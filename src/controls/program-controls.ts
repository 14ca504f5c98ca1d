import { RelayError } from '../errors/relay-error.ts';
import { ProgramRefusedError, type LoadedPrograms } from '../ledger/loaded-programs.ts';
import { parseAddress } from '../ledger/account-state.ts';
import type { RelayQueue } from '../relay/relay-queue.ts';
import type { SubmissionJob } from '../relay/submission-worker.ts';
import type { TestControlMethods } from './control-types.ts';

type ProgramControls = Pick<TestControlMethods, 'programs' | 'deployProgram'>;

/** The app's programs as tests see and change them: the list, and deploying or replacing one while the emulator runs. */
export function programControls(services: { programs: LoadedPrograms; queue: RelayQueue<SubmissionJob> }): ProgramControls {
  const { programs, queue } = services;
  return {
    programs: () => ({ programs: programs.list(), accounts: [...programs.dumps] }),

    async deployProgram(programId, elf, options = {}) {
      const authority = options.upgradeAuthority;
      try {
        // With no job in the ledger: a transaction runs wholly on the old code or the new.
        return await queue.whileHeld(() =>
          programs.deploy({
            programId: parseAddress(programId, 'programId'),
            elf,
            ...(options.loader === undefined ? {} : { loader: options.loader }),
            ...(authority === undefined ? {} : { upgradeAuthority: authority === null ? null : parseAddress(authority, 'upgradeAuthority') }),
          }),
        );
      } catch (error) {
        if (error instanceof ProgramRefusedError || error instanceof RangeError)
          throw new RelayError('PROGRAM_REFUSED', `Cannot deploy ${programId}: ${error.message}.`);
        throw error;
      }
    },
  };
}
