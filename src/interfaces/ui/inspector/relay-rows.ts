import type { RequestJournal, RequestRecord } from '../../controls/request-journal.ts';
import { PROBLEMS, type ProblemCode } from '../../../base/errors/problem-codes.ts';
import type { components } from '../../../generated/relay.ts';
import type { LegacyRecord, LegacyRecords, LegacyStatus } from '../../legacy/legacy-records.ts';
import type { Submission, Submissions, TransactionOrigin } from '../../../domain/store/submissions.ts';
import type { PolicyProfile } from '../../../domain/relay/policy-options.ts';
import { decodeRequestTransaction } from './decoded-transaction.ts';
import { NO_FACTS, submissionFacts, wireFacts } from './relay-facts.ts';
import { instructionsOf, legacyOperationId } from './instruction-names.ts';
import { type AppProgramNames, describeLedgerError } from '../../rpc/program-errors.ts';
import { isObject } from './json-values.ts';
import { sponsorCostOf } from '../../../domain/relay/sponsor-costs.ts';

export type RelayRow = components['schemas']['EmulatorRelayRow'];
export type RelayRowStatus = components['schemas']['EmulatorRelayStatus'];

/** Where the rows come from. */
export interface RelaySources {
  submissions: Submissions;
  legacy: LegacyRecords;
  journal: RequestJournal;
  /** The policy profile in force (what checked and refused rows were judged by). */
  profile: PolicyProfile;
  /** The app's programs' names for their errors (their IDLs). */
  appPrograms: AppProgramNames;
  /** The sponsors (the relay's fee payer, Kora's signers): what a transaction cost them is its sponsorCost. */
  sponsors: ReadonlySet<string>;
}

export interface RelayFilter {
  /** An address the transaction names (account keys, instruction fields, token balance owners). */
  wallet?: string;
  mint?: string;
  operation?: RelayRow['operation'];
  status?: RelayRowStatus;
  /** The newest `limit` rows. Default {@link DEFAULT_ROW_LIMIT}. */
  limit?: number;
}

const DEFAULT_ROW_LIMIT = 200;

/** The operations that relay (or send) a transaction, and the operation each is recorded as. */
export const RELAY_OPERATIONS: ReadonlyMap<string, TransactionOrigin> = new Map<string, TransactionOrigin>([
  ['createAccount', 'create'],
  ['closeAccount', 'close'],
  ['sendTransaction', 'send'],
  ['sendBatch', 'sendbatch'],
  ['legacyMakeTransfer', 'legacy'],
  ['legacyCreateAccount', 'legacy'],
  ['legacyCloseAccount', 'legacy'],
  ['jsonRpc', 'rpc'],
  ['koraJsonRpc', 'kora'],
]);
const KORA_SIGNING: ReadonlySet<unknown> = new Set(['signTransaction', 'signAndSendTransaction', 'transferTransaction']);
const RELAY_OPERATION_IDS: ReadonlySet<string> = new Set(RELAY_OPERATIONS.keys());
const OPERATION_IDS: Partial<Record<TransactionOrigin, string>> = {
  create: 'createAccount',
  close: 'closeAccount',
  send: 'sendTransaction',
  sendbatch: 'sendBatch',
  rpc: 'jsonRpc',
  kora: 'koraJsonRpc',
};

/** A row before it is built: built only when it is shown, or when a filter must look inside it. */
interface Candidate {
  time: number;
  row: () => RelayRow;
  facts: () => { addresses: ReadonlySet<string>; mints: ReadonlySet<string> };
}

/**
 * The web UI's list: every transaction record (relays of both interfaces, RPC sends), every legacy
 * record that has no transaction record (it failed before submission), and every refused relay
 * request the request journal still holds; newest first.
 */
export function relayRows(sources: RelaySources, filter: RelayFilter = {}): RelayRow[] {
  const candidates: Candidate[] = [];
  for (const submission of sources.submissions.all()) {
    candidates.push({ time: Date.parse(submission.receivedAt), row: () => transactionRow(submission, sources), facts: () => submissionFacts(submission) });
  }
  for (const legacy of sources.legacy.all()) {
    if (legacy.signature !== null && sources.submissions.get(legacy.signature)) continue;
    candidates.push({ time: Date.parse(legacy.createdAt), row: () => legacyRow(legacy), facts: () => wireFacts(legacy.tx) });
  }
  for (const entry of refusedRequests(sources.journal)) {
    candidates.push({
      time: Date.parse(entry.time),
      row: () => refusedRow(entry, sources.profile),
      facts: () => decodeRequestTransaction(entry.requestBody) ?? NO_FACTS,
    });
  }
  for (const entry of sources.journal.list({ minStatus: 400 })) {
    if (isRefusedRequest(entry)) candidates.push({ time: Date.parse(entry.time), row: () => refusedRow(entry, sources.profile), facts: () => NO_FACTS });
  }
  // Newest first; the sort is stable, so rows of one millisecond keep the order they were made in, reversed.
  candidates.reverse().sort((a, b) => b.time - a.time);

  const limit = filter.limit ?? DEFAULT_ROW_LIMIT;
  const rows: RelayRow[] = [];
  for (const candidate of candidates) {
    if (rows.length >= limit) break;
    const row = candidate.row();
    if (filter.operation !== undefined && row.operation !== filter.operation) continue;
    if (filter.status !== undefined && row.status !== filter.status) continue;
    if (filter.wallet !== undefined || filter.mint !== undefined) {
      const facts = candidate.facts();
      if (filter.wallet !== undefined && !facts.addresses.has(filter.wallet)) continue;
      if (filter.mint !== undefined && !facts.mints.has(filter.mint)) continue;
    }
    rows.push(row);
  }
  return rows;
}

/** The relay requests the journal holds that were refused: answered 4xx/5xx (Kora's 401s and 405s whatever the method), or a send answered with an error. */
function refusedRequests(journal: RequestJournal): RequestRecord[] {
  return journal.list({ operationIds: RELAY_OPERATION_IDS }).filter(isRefusal);
}

/** The web UI's own reads: listed, they would fill the list with the UI's 404s and 401s. */
const UI_READS: ReadonlySet<string> = new Set(['emulatorOverview', 'emulatorRelays', 'emulatorRelayDetail', 'emulatorWallet', 'emulatorEvents']);

/** A refused request of any other route (not a relay, not the UI reading): a config read with a bad key, an unknown path. */
export function isRefusedRequest(entry: RequestRecord): boolean {
  return entry.status >= 400 && !RELAY_OPERATION_IDS.has(entry.operationId ?? '') && !UI_READS.has(entry.operationId ?? '');
}

export function isRefusal(entry: RequestRecord): boolean {
  if (entry.operationId === null || !RELAY_OPERATION_IDS.has(entry.operationId)) return false;
  if (entry.operationId !== 'jsonRpc' && entry.operationId !== 'koraJsonRpc') return entry.status >= 400;
  if (entry.operationId === 'koraJsonRpc' && entry.status >= 400) return true;
  const method = isObject(entry.requestBody) ? entry.requestBody.method : undefined;
  const sends = entry.operationId === 'jsonRpc' ? method === 'sendTransaction' : KORA_SIGNING.has(method);
  return sends && (entry.status >= 400 || (isObject(entry.responseBody) && entry.responseBody.error !== undefined));
}

export function transactionRow(submission: Submission, sources: Pick<RelaySources, 'legacy' | 'profile' | 'appPrograms' | 'sponsors'>): RelayRow {
  const legacy = submission.origin === 'legacy' ? sources.legacy.bySignature(submission.signature) : undefined;
  const ledgerError = submission.ledger?.err ?? null;
  const legacyFailure = legacy?.status === 'Failed' ? (legacy.errors.at(-1)?.message ?? 'Failed') : null;
  return {
    id: submission.signature,
    source: 'transaction',
    time: submission.receivedAt,
    operation: submission.origin,
    operationId: legacy ? legacyOperationId(legacy) : (OPERATION_IDS[submission.origin] ?? null),
    signature: submission.signature,
    status: legacyFailure !== null ? 'Failed' : lifecycleStatus(submission),
    httpStatus: null,
    policy: verdictOf(submission, sources.profile),
    fee: submission.ledger ? Number(submission.ledger.fee) : null,
    sponsorExposure: submission.policyChecked || submission.origin === 'kora' ? Number(submission.sponsorExposure) : null,
    sponsorCost: costOf(submission, sources.sponsors),
    label: submission.label,
    error:
      submission.injectedError ??
      (ledgerError === null ? legacyFailure : describeLedgerError(ledgerError, instructionsOf(submission.wire), sources.appPrograms)),
    errorRaw: ledgerError,
    legacyId: legacy?.id ?? null,
  };
}

function costOf(submission: Submission, sponsors: ReadonlySet<string>): number | null {
  const cost = sponsorCostOf(submission, sponsors);
  return cost === null ? null : Number(cost.sponsorLamports);
}

/** The relay's policy profile judged what it checked; Kora's validation (no profile of ours) passed what Kora sent. */
function verdictOf(submission: Submission, profile: PolicyProfile): RelayRow['policy'] {
  if (submission.origin === 'kora') return { profile: null, verdict: 'passed', code: null, rule: null, strictRules: [] };
  return submission.policyChecked
    ? { profile, verdict: 'passed', code: null, rule: null, strictRules: submission.strictBreaks.map((broken) => broken.rule) }
    : { profile: null, verdict: 'unchecked', code: null, rule: null, strictRules: [] };
}

/** Queued, then the commitment reached (Processed, Confirmed, Finalized), or Failed. */
export function lifecycleStatus(submission: Pick<Submission, 'status' | 'commitment'>): RelayRowStatus {
  if (submission.status === 'queued') return 'Queued';
  if (submission.status === 'failed') return 'Failed';
  return submission.commitment === 'finalized' ? 'Finalized' : submission.commitment === 'confirmed' ? 'Confirmed' : 'Processed';
}

const LEGACY_LIFECYCLE: Record<LegacyStatus, RelayRowStatus> = {
  Processing: 'Queued',
  Committed: 'Processed',
  Confirmed: 'Confirmed',
  Finalized: 'Finalized',
  Failed: 'Failed',
};

export function legacyRow(legacy: LegacyRecord): RelayRow {
  return {
    id: legacy.id,
    source: 'legacy',
    time: legacy.createdAt,
    operation: 'legacy',
    operationId: legacyOperationId(legacy),
    signature: legacy.signature,
    status: LEGACY_LIFECYCLE[legacy.status],
    httpStatus: null,
    policy: { profile: null, verdict: 'unchecked', code: null, rule: null, strictRules: [] },
    fee: null,
    sponsorExposure: null,
    sponsorCost: null,
    label: null,
    error: legacy.errors.length > 0 ? legacy.errors.map((error) => `${error.type}: ${error.message}`).join('; ') : null,
    errorRaw: null,
    legacyId: legacy.id,
  };
}

export function refusedRow(entry: RequestRecord, profile: PolicyProfile): RelayRow {
  const body = entry.responseBody;
  const problem = isObject(body) ? body : {};
  const rpcError = isObject(problem.error) ? problem.error : null;
  const code = isProblemCode(problem.code) ? problem.code : null;
  const message = rpcError ? rpcError.message : (problem.detail ?? problem.message ?? problem.title);
  return {
    id: entry.id,
    source: 'refused',
    time: entry.time,
    operation: RELAY_OPERATIONS.get(entry.operationId ?? '') ?? 'request',
    operationId: entry.operationId,
    signature: null,
    status: 'Refused',
    httpStatus: entry.status,
    policy: {
      profile: ['jsonRpc', 'koraJsonRpc'].includes(entry.operationId ?? '') || !RELAY_OPERATION_IDS.has(entry.operationId ?? '') ? null : profile,
      verdict: 'refused',
      code,
      rule: typeof problem.rule === 'string' ? problem.rule : (entry.problem?.rule ?? null),
      strictRules: [],
    },
    fee: null,
    sponsorExposure: null,
    sponsorCost: null,
    label: null,
    error: typeof message === 'string' ? message : typeof body === 'string' ? body : `HTTP ${entry.status}`,
    errorRaw: null,
    legacyId: null,
  };
}

function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(PROBLEMS, value);
}
