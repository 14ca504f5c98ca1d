/**
 * The emulator's own failures: a misconfiguration it refuses at start, or a part used out of turn.
 * Never an answer to a request (the core masks anything that is not a RelayError as 500
 * INTERNAL_ERROR); coded, so that whoever catches one tells them apart by `code`, never by text.
 * Each code has its typed context and one message, made from it here, as kit's errors do.
 */
export interface InternalContexts {
  /** The API key list is empty. */
  API_KEYS_EMPTY: Record<never, never>;
  /** A fixture file (keys, mints, wallets, apps.json) cannot be used: `problem` says why, naming the file. */
  FIXTURES_INVALID: { problem: string };
  /** A kora.toml that Kora would not read, or that asks for what this emulator cannot honour: `problem` names the file and the key. */
  KORA_CONFIG_INVALID: { problem: string };
  /** An app's program (`--bpf-program`, `--upgradeable-program`, option `programs`) cannot be loaded: `problem` names the file or the flag. */
  PROGRAM_INVALID: { problem: string; address?: string };
  /** A Solana CLI account dump (`--account`, `--account-dir`, option `accounts`) cannot be loaded: `problem` names the file. */
  ACCOUNT_DUMP_INVALID: { problem: string };
  /** Option `genesis` (solana-test-validator's genesis flags) names what no genesis can hold: `problem` names the flag. */
  GENESIS_INVALID: { problem: string };
  /** A clone flag cannot be honoured: an address the cluster lacks, a program that is none, an RPC error; `problem` names it. */
  CLONE_FAILED: { problem: string };
  /** The cluster to clone from did not answer (after retries), and the clone cache lacks what was asked. */
  CLONE_UNREACHABLE: { url: string; problem: string };
  /** The code asks openapi/relay.yaml for something it does not declare. */
  CONTRACT_MISMATCH: { operationId: string; problem: string };
  /** The state file's journal holds changes of a part this emulator cannot replay. */
  JOURNAL_PART_UNKNOWN: { part: string; known: boolean };
  JOURNAL_SEGMENT_UNKNOWN: { segment: number };
  STATE_FILE_OPEN: { path: string };
  /** `--ready-file PATH` names something the emulator did not write (a file with content, a folder, a link, a device), or a place it cannot write. */
  READY_FILE_REFUSED: { path: string; problem: string };
  /**
   * A path the disk module (src/base/disk, decision 0010) will not write, replace, delete or read as
   * asked: something there the emulator did not write, a link, a device, a place it cannot write.
   * `label` is what named it (a flag, `the clone cache`), `problem` says why, after the path.
   */
  PATH_REFUSED: { label: string; path: string; problem: string };
  STATE_LOCK_CONTENDED: { path: string };
  STATE_PART_DUPLICATE: { part: string };
  CHANGE_SINK_ATTACHED: Record<never, never>;
  SNAPSHOT_NOT_OBJECT: Record<never, never>;
  /** settle() on a paused queue with jobs waiting: it would never end. */
  QUEUE_PAUSED: { waiting: number };
  SUBMISSION_UNKNOWN: { signature: string };
  ENGINE_CLOSED: { engine: string };
  ENGINE_NO_BLOCKHASH: { engine: string };
  PROGRAM_MISSING: { address: string };
  SERVER_TRANSACTION_UNPAID: Record<never, never>;
}

export type InternalCode = keyof InternalContexts;

const MESSAGES: { [C in InternalCode]: (context: InternalContexts[C]) => string } = {
  API_KEYS_EMPTY: () => 'at least one API key is required',
  FIXTURES_INVALID: ({ problem }) => problem,
  KORA_CONFIG_INVALID: ({ problem }) => problem,
  PROGRAM_INVALID: ({ problem }) => problem,
  ACCOUNT_DUMP_INVALID: ({ problem }) => problem,
  GENESIS_INVALID: ({ problem }) => problem,
  CLONE_FAILED: ({ problem }) => problem,
  CLONE_UNREACHABLE: ({ url, problem }) => `${url} cannot be reached (${problem})`,
  CONTRACT_MISMATCH: ({ operationId, problem }) => `${operationId}: ${problem}`,
  JOURNAL_PART_UNKNOWN: ({ part, known }) => `the journal holds changes of "${part}", which this emulator ${known ? 'cannot replay' : 'does not have'}`,
  JOURNAL_SEGMENT_UNKNOWN: ({ segment }) => `journal segment ${segment} was never started`,
  STATE_FILE_OPEN: ({ path }) => `${path} is open already`,
  READY_FILE_REFUSED: ({ path, problem }) => `--ready-file ${path}: ${problem}`,
  PATH_REFUSED: ({ label, path, problem }) => `${label} ${printablePath(path)}: ${problem}`,
  STATE_LOCK_CONTENDED: ({ path }) => `cannot take ${path}: it keeps changing under other starters`,
  STATE_PART_DUPLICATE: ({ part }) => `state part ${part} is registered twice`,
  CHANGE_SINK_ATTACHED: () => 'a change sink is already attached',
  SNAPSHOT_NOT_OBJECT: () => 'a snapshot encodes as a JSON object',
  QUEUE_PAUSED: ({ waiting }) => `The relay queue is paused with ${waiting} transaction(s) waiting: resume(), step() or flush() it first.`,
  SUBMISSION_UNKNOWN: ({ signature }) => `no submission ${signature}`,
  ENGINE_CLOSED: ({ engine }) => `the ${engine} engine is closed`,
  ENGINE_NO_BLOCKHASH: ({ engine }) => `${engine} returned no blockhash`,
  PROGRAM_MISSING: ({ address }) => `the litesvm package ships no program at ${address}`,
  SERVER_TRANSACTION_UNPAID: () => 'a server transaction needs a fee payer',
};

/** A path as one line: quoted as JSON when it holds a control character (a newline in a hostile name). */
export function printablePath(path: string): string {
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

export class InternalError<C extends InternalCode = InternalCode> extends Error {
  readonly code: C;
  readonly context: InternalContexts[C];

  constructor(code: C, context: InternalContexts[C], options?: { cause?: unknown }) {
    super(MESSAGES[code](context), options);
    this.name = 'InternalError';
    this.code = code;
    this.context = context;
  }
}

/** An InternalError, or one with this code. */
export function isInternalError<C extends InternalCode>(error: unknown, code?: C): error is InternalError<C> {
  return error instanceof InternalError && (code === undefined || error.code === code);
}
