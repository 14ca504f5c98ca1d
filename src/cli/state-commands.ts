/**
 * `relay-emulator export` and `relay-emulator import`: a running server's whole state, through its
 * admin-guarded /__emulator/state routes, in the state file's format (a sealed snapshot).
 *
 *   relay-emulator export --url ORIGIN [--admin-token TOKEN] [--out FILE]   (default: stdout)
 *   relay-emulator import --url ORIGIN [--admin-token TOKEN] FILE
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { connectionFailure } from '../http/connection-failure.ts';

export interface StateCommandIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

const USAGE = `Usage: relay-emulator export --url ORIGIN [--admin-token TOKEN] [--out FILE]
       relay-emulator import --url ORIGIN [--admin-token TOKEN] FILE

export writes a running emulator's whole state (ledger, transactions, history, legacy records, queue)
to FILE or stdout, as a sealed snapshot in the --state-file format; import replaces a running
emulator's state with one. Either also starts one: relay-emulator start --import FILE.

Options:
  --url ORIGIN           the emulator's origin, e.g. http://127.0.0.1:8787 (a base URL ending /api is taken too)
  --admin-token TOKEN    X-Admin-Token, which a non-loopback bind requires (env RELAY_EMULATOR_ADMIN_TOKEN)
  --out FILE             export: write FILE instead of stdout
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
  const { url, headers, file, out } = parsed;
  const fail = (message: string) => {
    stderr(`relay-emulator ${command}: ${message}\n`);
    return 1;
  };
  let body: string | undefined;
  if (command === 'import') {
    try {
      body = await readFile(file!, 'utf8');
    } catch (error) {
      return fail(`cannot read ${file}: ${(error as Error).message}`);
    }
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: command === 'export' ? 'GET' : 'PUT',
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
  } catch (error) {
    return fail(`cannot reach ${url}: ${connectionFailure(error, 0)}`);
  }
  const text = await response.text();
  if (!response.ok) return fail(`${response.status} from ${url}: ${problemDetail(text)}`);
  if (command === 'export') {
    if (out === undefined) stdout(text.endsWith('\n') ? text : `${text}\n`);
    else {
      await writeFile(out, `${text}\n`);
      stderr(`exported ${text.length} bytes to ${out}\n`);
    }
    return 0;
  }
  const result = JSON.parse(text) as { savedAt: string | null; transactions: number; queued: number };
  stdout(`imported ${file} (saved ${result.savedAt ?? 'at an unknown time'}): ${result.transactions} transactions, ${result.queued} queued again\n`);
  return 0;
}

function parse(command: 'export' | 'import', argv: string[], env: NodeJS.ProcessEnv) {
  let values: { url?: string; 'admin-token'?: string; out?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: command === 'import',
      options: { url: { type: 'string' }, 'admin-token': { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help' as const;
  if (!values.url) throw new UsageError("--url is required (the emulator's origin, e.g. http://127.0.0.1:8787)");
  if (!URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  if (command === 'import' && values.out !== undefined) throw new UsageError('--out is for export');
  const file = positionals[0];
  if (command === 'import' && (file === undefined || positionals.length > 1)) throw new UsageError('give the one FILE to import');
  const origin = new URL(values.url).origin;
  const token = values['admin-token'] ?? env.RELAY_EMULATOR_ADMIN_TOKEN;
  const headers: Record<string, string> = token ? { 'X-Admin-Token': token } : {};
  return { url: `${origin}/__emulator/state`, headers, file, out: values.out };
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
