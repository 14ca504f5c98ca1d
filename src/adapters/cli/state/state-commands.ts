/**
 * `relay-emulator export` and `relay-emulator import`: a running server's whole state, through its
 * admin-guarded /__emulator/state routes, in the state file's format (a sealed snapshot).
 *
 *   relay-emulator export --url ORIGIN [--admin-token TOKEN] [--out FILE]   (default: stdout)
 *   relay-emulator export --url ORIGIN --format solana-accounts --out DIR   (one Solana CLI dump per account)
 *   relay-emulator import --url ORIGIN [--admin-token TOKEN] FILE
 */
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { parseArgs } from 'node:util';
import { decodeBase58 } from '../../../base/crypto/base58.ts';
import { OwnedFile, type OwnedFileKind } from '../../../base/disk/owned-file.ts';
import { OwnedFolder, type OwnedFolderKind } from '../../../base/disk/owned-folder.ts';
import { boundedReadProblem, readBoundedText } from '../../../base/disk/read-file.ts';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import { FetchProblem, fetchBounded } from '../../../base/http/bounded-fetch.ts';
import { exactJson, type SolanaAccountDump } from '../../../domain/fixtures/account-dumps.ts';
import { parseJsonExact } from '../../../base/codecs/json-exact.ts';

/** A state as the controls take it (PUT /__emulator/state answers 413 past its own cap): a file or an answer larger than this is none. */
const MAX_STATE_BYTES = 512 * 1024 * 1024;
/** The controls' own answers (the import's receipt, a problem) are small; the whole wait for an export or import is bounded too. */
const TIMEOUT_MS = 10 * 60_000;

/** `export --out FILE`: replaces only an export, an empty file, or nothing (decision 0010); told by its first bytes. */
const EXPORT_FILE: OwnedFileKind = {
  label: '--out',
  what: 'a state export',
  isOurs: (head: string) => /^\{"format":"relay-emulator-state"/.test(head),
  maxBytes: MAX_STATE_BYTES,
  headBytes: 64,
};

/** `export --format solana-accounts --out DIR`: a folder of dumps only, `<address>.json` each. */
const DUMP_FOLDER: OwnedFolderKind = {
  label: '--out',
  what: 'a folder of account dumps',
  ownership: 'own',
  isOurs: (names: readonly string[]) => names.every((name) => name.endsWith('.json') && decodeBase58(name.slice(0, -5))?.length === 32),
};

export interface StateCommandIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

const USAGE = `Usage: relay-emulator export --url ORIGIN [--admin-token TOKEN] [--out FILE]
       relay-emulator export --url ORIGIN [--admin-token TOKEN] --format solana-accounts --out DIR
       relay-emulator import --url ORIGIN [--admin-token TOKEN] FILE

export writes a running emulator's whole state (ledger, transactions, history, legacy records, queue)
to FILE or stdout, as a sealed snapshot in the --state-file format; import replaces a running
emulator's state with one. Either also starts one: relay-emulator start --import FILE.
export --format solana-accounts writes each account of the ledger (but the runtime's own) to DIR as
\`solana account ADDRESS --output json\` does, one <address>.json each: --account-dir DIR loads them, here
or into solana-test-validator and Surfpool.

Options:
  --url ORIGIN           the emulator's origin, e.g. http://127.0.0.1:8787 (a base URL ending /api is taken too)
  --admin-token TOKEN    X-Admin-Token, which a non-loopback bind requires (env RELAY_EMULATOR_ADMIN_TOKEN)
  --out FILE             export: write FILE instead of stdout (with --format solana-accounts: the folder)
  --format FORMAT        export: state (default: the state file's format) or solana-accounts
  -h, --help             this text

Exit code: 0 when done, 1 when the emulator refused or could not be reached, 2 for a usage error.
`;

class UsageError extends Error {}

export async function runStateCommand(command: 'export' | 'import', argv: string[], io: StateCommandIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(command, argv, io.env ?? process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr(`relay-emulator ${command}: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    stdout(USAGE);
    return 0;
  }
  const { url, headers, file, out, format } = parsed;
  const fail = (message: string) => {
    stderr(`relay-emulator ${command}: ${message}\n`);
    return 1;
  };
  let body: string | undefined;
  if (command === 'import') {
    try {
      body = readBoundedText(file!, MAX_STATE_BYTES);
    } catch (error) {
      return fail(`${file}: ${boundedReadProblem(error)}`);
    }
  }
  if (format === 'solana-accounts') return exportAccounts(url.replace(/\/state$/, '/accounts'), headers, out!, { stderr, fail });
  let exportFile: OwnedFile | null = null;
  let status: number;
  let text: string;
  try {
    // Judged before anything is fetched: a file there that is not an export is refused, untouched.
    if (command === 'export' && out !== undefined) exportFile = OwnedFile.claim(out, EXPORT_FILE);
    ({ status, text } = await fetchBounded(
      url,
      {
        method: command === 'export' ? 'GET' : 'PUT',
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      },
      { maxBytes: MAX_STATE_BYTES, timeoutMs: TIMEOUT_MS },
    ));
  } catch (error) {
    if (isInternalError(error, 'PATH_REFUSED')) return fail(error.message);
    if (error instanceof FetchProblem) return fail(`cannot reach ${url}: ${error.message}`);
    throw error;
  }
  if (status < 200 || status >= 300) return fail(`${status} from ${url}: ${problemDetail(text)}`);
  if (command === 'export') {
    if (exportFile === null) stdout(text.endsWith('\n') ? text : `${text}\n`);
    else {
      try {
        exportFile.write(`${text}\n`);
      } catch (error) {
        if (isInternalError(error, 'PATH_REFUSED')) return fail(error.message);
        throw error;
      }
      stderr(`exported ${text.length} bytes to ${out}\n`);
    }
    return 0;
  }
  const result = JSON.parse(text) as { savedAt: string | null; transactions: number; queued: number };
  stdout(`imported ${file} (saved ${result.savedAt ?? 'at an unknown time'}): ${result.transactions} transactions, ${result.queued} queued again\n`);
  return 0;
}

/** `--format solana-accounts`: GET /__emulator/accounts, one <address>.json per account in `dir`, lamports exact. */
async function exportAccounts(
  url: string,
  headers: Record<string, string>,
  dir: string,
  io: { stderr: (text: string) => void; fail: (message: string) => number },
): Promise<number> {
  let folder: OwnedFolder;
  let status: number;
  let text: string;
  try {
    folder = OwnedFolder.claim(dir, DUMP_FOLDER);
    ({ status, text } = await fetchBounded(url, { headers }, { maxBytes: MAX_STATE_BYTES, timeoutMs: TIMEOUT_MS }));
  } catch (error) {
    if (isInternalError(error, 'PATH_REFUSED')) return io.fail(error.message);
    if (error instanceof FetchProblem) return io.fail(`cannot reach ${url}: ${error.message}`);
    throw error;
  }
  if (status < 200 || status >= 300) return io.fail(`${status} from ${url}: ${problemDetail(text)}`);
  // Integers past 2^53 (the faucet's lamports, u64::MAX rent epochs) are read exactly, as the server wrote them.
  const { accounts } = parseJsonExact(text) as { accounts: SolanaAccountDump[] };
  try {
    for (const dump of accounts) folder.write(`${dump.pubkey}.json`, `${exactJson(dump, 2)}\n`);
  } catch (error) {
    if (isInternalError(error, 'PATH_REFUSED')) return io.fail(error.message);
    throw error;
  }
  io.stderr(`exported ${accounts.length} accounts to ${dir}, one Solana CLI dump each (load them with --account-dir ${dir})\n`);
  return 0;
}
/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const STATE_OPTIONS = {
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse(command: 'export' | 'import', argv: string[], env: NodeJS.ProcessEnv) {
  let values: { url?: string; 'admin-token'?: string; out?: string; format?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: command === 'import',
      options: STATE_OPTIONS,
    }));
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  if (values.help) return 'help' as const;
  if (!values.url) throw new UsageError("--url is required (the emulator's origin, e.g. http://127.0.0.1:8787)");
  if (!URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  if (command === 'import' && values.out !== undefined) throw new UsageError('--out is for export');
  const format = values.format ?? 'state';
  if (format !== 'state' && format !== 'solana-accounts') throw new UsageError(`--format must be state or solana-accounts, not "${format}"`);
  if (command === 'import' && values.format !== undefined) throw new UsageError('--format is for export');
  if (format === 'solana-accounts' && values.out === undefined) throw new UsageError('--format solana-accounts writes a folder: give it with --out DIR');
  const file = positionals[0];
  if (command === 'import' && (file === undefined || positionals.length > 1)) throw new UsageError('give the one FILE to import');
  const origin = new URL(values.url).origin;
  const token = values['admin-token'] ?? env.RELAY_EMULATOR_ADMIN_TOKEN;
  const headers: Record<string, string> = token ? { 'X-Admin-Token': token } : {};
  return { url: `${origin}/__emulator/state`, headers, file, out: values.out, format };
}

/** The problem body's detail, else the text (cut). */
function problemDetail(text: string): string {
  try {
    const problem = JSON.parse(text) as { code?: string; detail?: string };
    if (problem.detail) return problem.code ? `${problem.code}: ${problem.detail}` : problem.detail;
  } catch {
    // Not JSON: the text as it came.
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
