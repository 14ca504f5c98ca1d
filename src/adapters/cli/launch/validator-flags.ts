import { resolve } from 'node:path';
import type { AccountOption, ProgramOption } from '../../../domain/fixtures/app-genesis.ts';

/**
 * solana-test-validator's flags for an app's programs and accounts, in its own syntax (Surfpool takes
 * the same, and tools build one argument list for both: Light Protocol's CLI, initTestEnv.js):
 *   --bpf-program ADDRESS_OR_KEYPAIR FILE.so
 *   --upgradeable-program ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none
 *   --account ADDRESS|- FILE.json
 * Each takes several values after one flag, which node:util parseArgs cannot, so they are taken out
 * of argv before it runs. `--account-dir DIR` takes one value and is parsed with the rest.
 */
export const MULTI_VALUE_FLAGS = {
  'bpf-program': ['ADDRESS_OR_KEYPAIR', 'FILE.so'],
  'upgradeable-program': ['ADDRESS_OR_KEYPAIR', 'FILE.so', 'UPGRADE_AUTHORITY|none'],
  account: ['ADDRESS|-', 'FILE.json'],
} as const;

export interface ValidatorFlags {
  /** argv without the flags taken out. */
  rest: string[];
  programs: ProgramOption[];
  accounts: AccountOption[];
}

/** Takes the multi-value flags out of `argv`; `refuse` says what is wrong with one (a usage error). Paths are resolved against the working directory. */
export function takeValidatorFlags(argv: readonly string[], refuse: (message: string) => never): ValidatorFlags {
  const rest: string[] = [];
  const programs: ProgramOption[] = [];
  const accounts: AccountOption[] = [];
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at]!;
    if (arg === '--') {
      rest.push(...argv.slice(at));
      break;
    }
    const flag = arg.startsWith('--') ? arg.slice(2) : '';
    if (!Object.hasOwn(MULTI_VALUE_FLAGS, flag)) {
      rest.push(arg);
      continue;
    }
    const names = MULTI_VALUE_FLAGS[flag as keyof typeof MULTI_VALUE_FLAGS];
    const values = argv.slice(at + 1, at + 1 + names.length);
    const short = values.findIndex((value) => value.startsWith('--'));
    if (values.length < names.length || short !== -1) {
      refuse(`--${flag} takes ${names.join(' ')}; ${names[short === -1 ? values.length : short]} is missing`);
    }
    at += names.length;
    if (flag === 'account') accounts.push({ ...(values[0] === '-' ? {} : { address: values[0]! }), path: resolve(values[1]!) });
    else {
      const [id, file, authority] = values as [string, string, string?];
      const program: ProgramOption = { programId: keyOrFile(id), path: resolve(file) };
      if (flag === 'upgradeable-program')
        Object.assign(program, { loader: 'upgradeable', upgradeAuthority: authority === 'none' ? null : keyOrFile(authority!) });
      programs.push(program);
    }
  }
  return { rest, programs, accounts };
}

/** The usage lines of these flags, for `start --help`. */
export function validatorFlagLines(): string {
  const help: Record<keyof typeof MULTI_VALUE_FLAGS, string> = {
    'bpf-program': "load an app's program at genesis, owned by BPF Loader 2 (not upgradeable), repeatable",
    'upgradeable-program': "load an app's program under the upgradeable loader with its program data, repeatable",
    account: 'load an account from a `solana account --output json` dump; - takes the address from the file; repeatable',
  };
  return Object.entries(MULTI_VALUE_FLAGS)
    .map(([flag, names]) => `  --${flag} ${names.join(' ')}\n  ${' '.repeat(26)} ${help[flag as keyof typeof help]}`)
    .join('\n');
}

/** A keypair file's path is resolved; an address is kept as given (a name that is not a file is read as an address later). */
function keyOrFile(value: string): string {
  return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value) ? value : resolve(value);
}
