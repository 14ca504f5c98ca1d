import { PublicKey } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { toAccountDump } from '../../domain/fixtures/account-dumps.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { programDataAddress } from '../../domain/ledger/program-accounts.ts';
import { runtimeAccountReason } from '../../domain/ledger/protected-accounts.ts';
import { ProgramRefusedError, type LoadedPrograms } from '../../domain/ledger/loaded-programs.ts';
import { parseAddress } from '../../domain/ledger/account-state.ts';
import type { RelayQueue } from '../../domain/relay/relay-queue.ts';
import type { SubmissionJob } from '../../domain/relay/submission-worker.ts';
import type { TestControlMethods } from './control-types.ts';

type ProgramControls = Pick<TestControlMethods, 'programs' | 'deployProgram' | 'accountDumps'>;

/** Owners whose accounts only the runtime makes (sysvars, builtins): never exported. */
const RESERVED_OWNERS: ReadonlySet<string> = new Set(['Sysvar1111111111111111111111111111111111111', 'NativeLoader1111111111111111111111111111111']);

/** The app's programs as tests see and change them: the list, and deploying or replacing one while the emulator runs. */
export function programControls(deps: { programs: LoadedPrograms; queue: RelayQueue<SubmissionJob>; ledger: Ledger }): ProgramControls {
  const { programs, queue, ledger } = deps;
  return {
    /**
     * Every account the ledger holds but the runtime's own (builtins, sysvars, what the engine ships):
     * the fixtures', the dumps', every one written since, and the app's programs with their data.
     */
    async accountDumps() {
      const addresses = new Set(ledger.knownAddresses());
      for (const program of programs.list()) {
        addresses.add(program.programId);
        if (program.loader === 'upgradeable') addresses.add(addressOf(programDataAddress(new PublicKey(program.programId))));
      }
      const keys = [...addresses].sort().map((address) => new PublicKey(address));
      const accounts = await ledger.readAccounts(keys);
      return keys.flatMap((key, index) => {
        const account = accounts[index];
        return account && runtimeAccountReason(key) === null && !RESERVED_OWNERS.has(addressOf(account.owner)) ? [toAccountDump(key, account)] : [];
      });
    },

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
