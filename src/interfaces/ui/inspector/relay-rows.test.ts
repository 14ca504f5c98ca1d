import { describe, expect, it } from 'vitest';
import { RequestJournal } from '../../controls/request-journal.ts';
import type { Call } from '../../../base/http/router.ts';
import { observed } from '../../../core/observe-exchanges.test-support.ts';
import { LegacyRecords, processingRecord } from '../../legacy/legacy-records.ts';
import { jsonResponse } from '../../../base/http/json-response.ts';
import { Submissions, type Submission } from '../../../domain/store/submissions.ts';
import { lifecycleStatus, relayRows } from './relay-rows.ts';
import { relayDetail } from './relay-detail.ts';
import { NO_APP_PROGRAMS } from '../../rpc/program-errors.ts';

const record = (signature: string, fields: Partial<Submission>): Submission => ({
  signature,
  origin: 'send',
  status: 'queued',
  commitment: null,
  message: 'ok',
  wire: '',
  receivedAt: '2026-01-01T00:00:00.000Z',
  ledger: null,
  injectedError: null,
  policyChecked: true,
  strictBreaks: [],
  sponsorExposure: 0n,
  label: null,
  payments: [],
  ...fields,
});

/** A journal holding what `exchanges` answered, as the emulator's observers record it. */
async function journalOf(exchanges: { path: string; operationId: string; status: number; request: unknown; response: unknown }[]): Promise<RequestJournal> {
  const journal = new RequestJournal({ maxEntries: 10 });
  for (const exchange of exchanges) {
    const core = async ({ vars }: Call) => {
      vars.operationId = exchange.operationId;
      return jsonResponse(exchange.response, { status: exchange.status });
    };
    const fetch = observed(core, { observers: [journal.record], wantsBodies: journal.wants });
    await fetch(
      new Request(`http://emulator.test${exchange.path}`, {
        method: 'POST',
        body: JSON.stringify(exchange.request),
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  }
  return journal;
}

describe('relay rows', () => {
  it('names a record’s lifecycle from its status and commitment', () => {
    expect(lifecycleStatus({ status: 'queued', commitment: null })).toBe('Queued');
    expect(lifecycleStatus({ status: 'processed', commitment: 'processed' })).toBe('Processed');
    expect(lifecycleStatus({ status: 'processed', commitment: 'confirmed' })).toBe('Confirmed');
    expect(lifecycleStatus({ status: 'processed', commitment: 'finalized' })).toBe('Finalized');
    expect(lifecycleStatus({ status: 'failed', commitment: null })).toBe('Failed');
  });

  it('merges three sources newest first: records, legacy records without one, refused requests', async () => {
    const records = new Submissions();
    records.insert(record('sig-rpc', { origin: 'rpc', policyChecked: false, receivedAt: '2026-01-01T00:00:01.000Z' }));
    records.insert(
      record('sig-legacy', {
        origin: 'legacy',
        status: 'processed',
        commitment: 'finalized',
        receivedAt: '2026-01-01T00:00:02.000Z',
        strictBreaks: [{ rule: 'A6', code: 'CLOSE_AUTHORITY_NOT_FEE_PAYER', detail: 'no hand-over', account: 'acct', exposure: 2_039_280n }],
        sponsorExposure: 2_039_280n,
      }),
    );
    const legacy = new LegacyRecords();
    const base = {
      appKey: 'app-1-devnet',
      commitment: 'Confirmed',
      forwardHeaders: {},
      tx: '',
      feePayer: 'f',
      source: null,
      amount: null,
      destination: null,
      decimals: 5,
      ip: null,
      mint: 'm',
      processingDuration: 0,
      reference: null,
      ua: null,
    } as const;
    const merged = legacy.insert(processingRecord({ ...base, id: 'ltx1', createdAt: '2026-01-01T00:00:02.000Z' }));
    legacy.update(merged.id, {
      signature: 'sig-legacy',
      status: 'Failed',
      errors: [{ id: 'e1', logs: [], message: 'event webhook said 500', type: 'WebhookFailed', instruction: null }],
    });
    const alone = legacy.insert(processingRecord({ ...base, id: 'ltx2', createdAt: '2026-01-01T00:00:03.000Z' }));
    legacy.update(alone.id, { status: 'Failed', errors: [{ id: 'e2', logs: [], message: 'Blockhash not found', type: 'BadNonce', instruction: null }] });
    const journal = await journalOf([
      {
        path: '/api/Transaction/send',
        operationId: 'sendTransaction',
        status: 422,
        request: { signedTransaction: 'AA==' },
        response: { code: 'OPERATION_MISMATCH', rule: 'O1', detail: 'A send transaction may not close.' },
      },
      { path: '/api/Transaction/send', operationId: 'sendTransaction', status: 200, request: {}, response: { signature: 'sig-x' } },
      {
        path: '/rpc',
        operationId: 'jsonRpc',
        status: 200,
        request: { jsonrpc: '2.0', method: 'sendTransaction', params: ['x'] },
        response: { jsonrpc: '2.0', error: { code: -32002, message: 'Transaction simulation failed' } },
      },
      {
        path: '/rpc',
        operationId: 'jsonRpc',
        status: 200,
        request: { jsonrpc: '2.0', method: 'getBalance', params: ['x'] },
        response: { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid param' } },
      },
      {
        path: '/api/transaction/make-transfer',
        operationId: 'legacyMakeTransfer',
        status: 422,
        request: { tx: 'AA==' },
        response: { statusCode: 422, message: 'nope', error: 'Unprocessable Entity', rule: 'A6' },
      },
    ]);
    const rows = relayRows({ submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() });

    // The journal's requests were made just now, after the fixed times of the records.
    expect(rows.map((row) => row.id)).toEqual(['req-5', 'req-3', 'req-1', 'ltx2', 'sig-legacy', 'sig-rpc']);
    expect(rows.find((row) => row.id === 'sig-legacy')).toMatchObject({
      source: 'transaction',
      status: 'Failed',
      legacyId: 'ltx1',
      error: 'event webhook said 500',
      policy: { profile: 'faithful', verdict: 'passed', strictRules: ['A6'] },
      sponsorExposure: 2_039_280,
    });
    expect(rows.find((row) => row.id === 'sig-rpc')).toMatchObject({
      operation: 'rpc',
      status: 'Queued',
      policy: { profile: null, verdict: 'unchecked', strictRules: [] },
      sponsorExposure: null,
    });
    expect(rows.find((row) => row.id === 'ltx2')).toMatchObject({
      source: 'legacy',
      status: 'Failed',
      signature: null,
      error: 'BadNonce: Blockhash not found',
    });
    expect(rows.find((row) => row.id === 'req-1')).toMatchObject({
      status: 'Refused',
      httpStatus: 422,
      policy: { verdict: 'refused', code: 'OPERATION_MISMATCH', rule: 'O1' },
      error: 'A send transaction may not close.',
    });
    expect(rows.find((row) => row.id === 'req-3')).toMatchObject({
      operation: 'rpc',
      status: 'Refused',
      policy: { code: null, rule: null },
      error: 'Transaction simulation failed',
    });
    expect(rows.find((row) => row.id === 'req-5')).toMatchObject({ operation: 'legacy', policy: { code: null, rule: 'A6' }, error: 'nope' });

    expect(
      relayRows(
        { submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() },
        { status: 'Refused', operation: 'rpc' },
      ).map((row) => row.id),
    ).toEqual(['req-3']);
    expect(
      relayRows(
        { submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() },
        { limit: 2 },
      ).map((row) => row.id),
    ).toEqual(['req-5', 'req-3']);
    expect(
      relayDetail({ submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() }, 'req-3')
        ?.problem,
    ).toEqual({
      code: -32002,
      message: 'Transaction simulation failed',
    });
    const sources = { submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() };
    expect(relayDetail(sources, 'req-4')).toBeUndefined(); // A read answered with an error is no relay.
    expect(relayDetail(sources, 'req-2')).toBeUndefined(); // Accepted: its row is the transaction's.
    expect(
      relayDetail(
        { submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() },
        'sig-legacy',
      )?.strictBreaks,
    ).toEqual([{ rule: 'A6', code: 'CLOSE_AUTHORITY_NOT_FEE_PAYER', detail: 'no hand-over', account: 'acct', exposure: 2_039_280 }]);
    expect(
      relayDetail({ submissions: records, legacy, journal, profile: 'faithful' as const, appPrograms: NO_APP_PROGRAMS, sponsors: new Set<string>() }, 'ltx2')
        ?.legacy,
    ).toMatchObject({
      id: 'ltx2',
      status: 'Failed',
    });
  });
});
