import type { RequestRecord } from '../../controls/request-journal.ts';
import type { components } from '../../../generated/relay.ts';
import { publicRecord, type LegacyRecord } from '../../legacy/legacy-records.ts';
import { transactionJson } from '../../rpc/transaction-json.ts';
import type { Submission } from '../../../domain/store/submissions.ts';
import { decodeAppMemo } from '../../legacy/app-memo.ts';
import { decodeRequestTransaction, decodeWire } from './decoded-transaction.ts';
import { isRefusal, isRefusedRequest, legacyRow, RELAY_OPERATIONS, refusedRow, transactionRow, type RelaySources } from './relay-rows.ts';
import { isObject } from './json-values.ts';
import { idlDecoded } from './idl-decoded.ts';

export type RelayDetail = components['schemas']['EmulatorRelayDetail'];

/**
 * Everything known about one row of the list, by its id: a signature, a legacy record id, or a
 * request journal id. Undefined when none of the three knows it.
 */
export function relayDetail(sources: RelaySources, id: string): RelayDetail | undefined {
  const detail = detailOf(sources, id);
  return detail && { ...detail, appMemos: appMemosOf(detail.transaction), idlInstructions: idlDecoded(detail.transaction, detail.meta, sources.appPrograms) };
}

type Found = Omit<RelayDetail, 'appMemos' | 'idlInstructions'>;

function detailOf(sources: RelaySources, id: string): Found | undefined {
  const submission = sources.submissions.get(id);
  if (submission) return transactionDetail(sources, submission);
  const legacy = sources.legacy.bySignature(id) ?? sources.legacy.get(id);
  if (legacy) return legacyDetail(sources, legacy);
  const entry = sources.journal.get(id);
  if (entry && (isRefusal(entry) || isRefusedRequest(entry))) return refusedDetail(entry, sources);
  return undefined;
}

const MEMO_TYPES = ['none', 'earn', 'spend', 'p2p'] as const;

/** The Kin app memos among the instructions (Memo v1 or Memo text that decodes as one), decoded. */
function appMemosOf(transaction: Record<string, unknown> | null): RelayDetail['appMemos'] {
  const instructions = (transaction?.message as { instructions?: { program?: string; parsed?: unknown }[] } | undefined)?.instructions ?? [];
  return instructions.flatMap((ix, at) => {
    const memo = ix.program === 'spl-memo' && typeof ix.parsed === 'string' ? decodeAppMemo(ix.parsed) : null;
    return memo
      ? [
          {
            instruction: at + 1,
            appIndex: memo.index,
            type: memo.type,
            typeName: MEMO_TYPES[memo.type] ?? 'unknown',
            version: memo.version,
            foreignKey: memo.foreignKey ?? '',
          },
        ]
      : [];
  });
}

function transactionDetail(sources: RelaySources, submission: Submission): Found {
  const legacy = submission.origin === 'legacy' ? sources.legacy.bySignature(submission.signature) : undefined;
  // Processed: the RPC's getTransaction in jsonParsed. Queued (or failed before the ledger): the decoded bytes.
  const rendered = transactionJson(submission, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 });
  return {
    row: transactionRow(submission, sources),
    strictBreaks: submission.strictBreaks.map((broken) => ({ ...broken, exposure: Number(broken.exposure) })),
    transaction: objectOrNull(rendered?.transaction) ?? decodeWire(new Uint8Array(Buffer.from(submission.wire, 'base64')))?.parsed ?? null,
    meta: objectOrNull(rendered?.meta),
    slot: submission.ledger ? Number(submission.ledger.slot) : null,
    blockTime: submission.ledger?.blockTime ?? null,
    request: journalEntryNaming(sources, submission.signature) ?? (legacy ? journalEntryNaming(sources, legacy.id) : null),
    problem: null,
    legacy: legacy ? publicRecord(legacy) : null,
  };
}

function legacyDetail(sources: RelaySources, legacy: LegacyRecord): Found {
  return {
    row: legacyRow(legacy),
    strictBreaks: [],
    transaction: decodeWire(new Uint8Array(Buffer.from(legacy.tx, 'base64')))?.parsed ?? null,
    meta: null,
    slot: null,
    blockTime: null,
    request: journalEntryNaming(sources, legacy.id),
    problem: null,
    legacy: publicRecord(legacy),
  };
}

function refusedDetail(entry: RequestRecord, sources: RelaySources): Found {
  const body = entry.responseBody;
  const problem = isObject(body) ? (isObject(body.error) ? body.error : body) : null;
  return {
    row: refusedRow(entry, sources.profile),
    strictBreaks: [],
    transaction: decodeRequestTransaction(entry.requestBody)?.parsed ?? null,
    meta: null,
    slot: null,
    blockTime: null,
    request: entry,
    problem,
    legacy: null,
  };
}

/** The first relay request whose response names `needle` (a signature, a legacy record id), while the journal holds it. */
function journalEntryNaming(sources: RelaySources, needle: string): RequestRecord | null {
  for (const entry of sources.journal.list({ operationIds: RELAY_OPERATION_ID_SET })) {
    if (entry.status >= 400) continue;
    if (entry.operationId === 'jsonRpc' && !(isObject(entry.requestBody) && entry.requestBody.method === 'sendTransaction')) continue;
    if (JSON.stringify(entry.responseBody ?? null).includes(needle)) return entry;
  }
  return null;
}

const RELAY_OPERATION_ID_SET: ReadonlySet<string> = new Set(RELAY_OPERATIONS.keys());

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return isObject(value) ? value : null;
}
