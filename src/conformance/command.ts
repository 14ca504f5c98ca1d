/**
 * `relay-emulator conformance`: runs the kit against a base URL and prints the table.
 *
 *   relay-emulator conformance --base-url URL --api-key KEY [--rpc-url URL] [--owner-keypair FILE]
 *     [--mint ADDRESS] [--legacy ENV/INDEX] [--interface current|legacy|all|kora] [--report junit|json]
 *     [--kora-url URL [--kora-api-key KEY] [--kora-hmac-secret SECRET]]
 *     [--out FILE] [--timeout MS] [--only ID,PREFIX.,…] [--verbose] [--no-color]
 *
 * Exit codes: 0 when conformant (every MUST check in scope ran and passed), 1 when a MUST check failed,
 * 2 for a usage error, 3 when incomplete (none failed, but a MUST check was skipped), 4 when the base
 * URL cannot be reached at all (nothing was checked).
 * The CLI entry point (src/adapters/cli/) calls runConformanceCommand with the arguments after `conformance`
 * (a leading `conformance` is accepted and dropped too).
 */
import { parseArgsMessage } from '../base/words/parse-args-message.ts';
import { OwnedFile } from '../base/disk/owned-file.ts';
import { readKeypair, REPORT_FILES, UsageError } from './command-files.ts';
import { isInternalError } from '../base/errors/internal-error.ts';
import { parseArgs } from 'node:util';
import { formatJson } from './format-json.ts';
import { formatJUnit } from './format-junit.ts';
import { formatTable } from './format-table.ts';
import { DEFAULT_TIMEOUT_MS, runConformance } from './run-conformance.ts';
import { CONFORMANCE_USAGE } from './usage-text.ts';
import { toPublicKey } from './transactions.ts';
import { probeTarget } from './probe-target.ts';
import { INTERFACE_SCOPES, type ConformanceOptions, type ConformanceVerdict, type InterfaceScope, type LegacyTarget } from './types.ts';

export const EXIT_OK = 0;
export const EXIT_MUST_FAILED = 1;
export const EXIT_USAGE = 2;
/** No MUST check failed, but one was skipped: the run does not show conformance, so CI must not pass it. */
export const EXIT_INCOMPLETE = 3;
/** The base URL did not answer at all (refused, no such host, timed out): one line says why, no check ran. */
export const EXIT_UNREACHABLE = 4;

export { CONFORMANCE_USAGE };

const EXIT_OF: Record<ConformanceVerdict, number> = { conformant: EXIT_OK, 'not-conformant': EXIT_MUST_FAILED, incomplete: EXIT_INCOMPLETE };

/** Where text goes; `write` calls back once the text is handed off (as node streams do). */
export interface TextSink {
  write(text: string, callback: (error?: Error | null) => void): unknown;
  isTTY?: boolean;
}

export interface CommandIo {
  /** Default process.stdout. */
  stdout?: TextSink;
  /** Default process.stderr. */
  stderr?: TextSink;
  /** Default globalThis.fetch. */
  fetch?: ConformanceOptions['fetch'];
  /** Default process.env (NO_COLOR is honoured). */
  env?: Record<string, string | undefined>;
}

type ReportFormat = 'junit' | 'json';

export async function runConformanceCommand(argv: string[], io: CommandIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  // Resolved once flushed, so that a caller may process.exit() right after without cutting a piped report.
  const write = (sink: TextSink, text: string) => new Promise<void>((resolve) => sink.write(text, () => resolve()));
  const env = io.env ?? process.env;
  let parsed: Awaited<ReturnType<typeof parseCommand>>;
  try {
    parsed = await parseCommand(argv[0] === 'conformance' ? argv.slice(1) : argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    await write(stderr, `relay-emulator conformance: ${error.message}\n${error.showUsage ? `\n${CONFORMANCE_USAGE}` : ''}`);
    return EXIT_USAGE;
  }
  if (parsed === 'help') {
    await write(stdout, CONFORMANCE_USAGE);
    return EXIT_OK;
  }
  const { options, report, out, verbose, noColor } = parsed;
  // Judged before the run: a file at --out that is not such a report is refused, untouched.
  let outFile: OwnedFile | null = null;
  if (report && out) {
    try {
      outFile = OwnedFile.claim(out, REPORT_FILES[report]);
    } catch (error) {
      if (!isInternalError(error, 'PATH_REFUSED')) throw error;
      await write(stderr, `relay-emulator conformance: ${error.message}\n`);
      return EXIT_USAGE;
    }
  }
  const fetchFn = io.fetch ?? ((request: Request) => globalThis.fetch(request));
  const unreachable = await probeTarget(options.baseUrl, fetchFn, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (unreachable) {
    await write(stderr, `relay-emulator conformance: cannot reach ${options.baseUrl}: ${unreachable}\n`);
    return EXIT_UNREACHABLE;
  }
  const result = await runConformance({ ...options, fetch: fetchFn });

  const tableTo = report && !out ? stderr : stdout;
  const color = !noColor && env.NO_COLOR === undefined && tableTo === stdout && Boolean(stdout.isTTY);
  await write(tableTo, formatTable(result, { color, verbose }));
  if (report) {
    const text = report === 'junit' ? formatJUnit(result) : formatJson(result);
    if (outFile) {
      try {
        outFile.write(text);
      } catch (error) {
        if (!isInternalError(error, 'PATH_REFUSED')) throw error;
        await write(stderr, `relay-emulator conformance: ${error.message}\n`);
        return EXIT_USAGE;
      }
      await write(stdout, `${report} report written to ${out}\n`);
    } else {
      await write(stdout, text);
    }
  }
  return EXIT_OF[result.summary.verdict];
}

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const CONFORMANCE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'rpc-url': { type: 'string' },
  'owner-keypair': { type: 'string' },
  mint: { type: 'string' },
  legacy: { type: 'string' },
  interface: { type: 'string' },
  'kora-url': { type: 'string' },
  'kora-api-key': { type: 'string' },
  'kora-hmac-secret': { type: 'string' },
  report: { type: 'string' },
  out: { type: 'string' },
  timeout: { type: 'string' },
  only: { type: 'string' },
  verbose: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The command's flags, as node:util parses them (throws on an unknown or malformed one). */
function parseFlags(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: CONFORMANCE_OPTIONS,
  }).values;
}

async function parseCommand(args: string[]) {
  let values: ReturnType<typeof parseFlags>;
  try {
    values = parseFlags(args);
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  if (values.help) return 'help' as const;

  let scope: InterfaceScope | undefined;
  if (values.interface !== undefined) {
    if (!INTERFACE_SCOPES.includes(values.interface as InterfaceScope)) {
      throw new UsageError(`--interface must be one of ${INTERFACE_SCOPES.join(', ')}, not ${values.interface}`);
    }
    scope = values.interface as InterfaceScope;
    if ((scope === 'legacy' || scope === 'all') && !values.legacy)
      throw new UsageError(`--interface ${scope} checks a legacy app: give --legacy ENV/INDEX too`);
  }
  const koraUrl = values['kora-url'];
  if (koraUrl !== undefined && !URL.canParse(koraUrl)) throw new UsageError(`--kora-url is not a URL: ${koraUrl}`);
  if (scope === 'kora' && koraUrl === undefined) throw new UsageError("--interface kora checks Kora's JSON-RPC: give --kora-url URL too");
  const baseUrl = values['base-url'] ?? (scope === 'kora' ? koraUrl : undefined);
  if (!baseUrl) throw new UsageError('--base-url is required');
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url is not a URL: ${baseUrl}`);
  const apiKey = values['api-key'];
  if (!apiKey && scope !== 'legacy' && scope !== 'kora') throw new UsageError('--api-key is required (but for --interface legacy or kora)');
  const rpcUrl = values['rpc-url'];
  if (rpcUrl !== undefined && !URL.canParse(rpcUrl)) throw new UsageError(`--rpc-url is not a URL: ${rpcUrl}`);
  const mint = values.mint;
  if (mint !== undefined && !toPublicKey(mint)) throw new UsageError(`--mint is not a base58 address: ${mint}`);

  let report: ReportFormat | undefined;
  if (values.report !== undefined) {
    if (values.report !== 'junit' && values.report !== 'json') throw new UsageError(`--report must be junit or json, not ${values.report}`);
    report = values.report;
  } else if (values.out !== undefined) {
    if (/\.xml$/i.test(values.out)) report = 'junit';
    else if (/\.json$/i.test(values.out)) report = 'json';
    else throw new UsageError('--out needs --report junit|json (or a .xml or .json file name)');
  }

  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, not ${values.timeout}`);
  }

  const options: ConformanceOptions = {
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(scope ? { interface: scope } : {}),
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(mint ? { mint } : {}),
    ...(values['owner-keypair'] ? { ownerKeypair: await readKeypair(values['owner-keypair']) } : {}),
    ...(values.legacy ? { legacy: parseLegacy(values.legacy) } : {}),
    ...(koraUrl
      ? {
          kora: {
            url: koraUrl,
            ...(values['kora-api-key'] ? { apiKey: values['kora-api-key'] } : {}),
            ...(values['kora-hmac-secret'] ? { hmacSecret: values['kora-hmac-secret'] } : {}),
          },
        }
      : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(values.only
      ? {
          only: values.only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
  };
  return { options, report, out: values.out, verbose: values.verbose ?? false, noColor: values['no-color'] ?? false };
}

/** ENV/INDEX, e.g. devnet/1; the environment may itself contain '/'. */
export function parseLegacy(value: string): LegacyTarget {
  const slash = value.lastIndexOf('/');
  const environment = value.slice(0, slash);
  const index = value.slice(slash + 1);
  if (slash <= 0 || !/^\d+$/.test(index)) throw new UsageError(`--legacy must be ENV/INDEX with an integer index, e.g. devnet/1; got ${value}`);
  return { environment, index: Number(index) };
}
