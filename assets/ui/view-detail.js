// One relay in full: what the app sent, what the policy said, what the ledger said, what it cost.

import { call } from './api.js';
import { addressLink, blockTimeText, definitions, fill, h, json, lamports, ledgerError, link, sol, statusBadge, table } from './dom.js';
import { instruction } from './detail-instruction.js';
import { operationText, policyText } from './panel-relays.js';

export function detailView(id, _app) {
  const body = h('div', {}, h('p', {}, 'Loading…'));
  const heading = h('h1', { id: 'detail-title', class: 'mono-heading' }, `Relay ${id}`);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  return {
    title: `Relay ${id.slice(0, 12)}`,
    element: h('article', { class: 'detail', 'aria-labelledby': 'detail-title' }, h('p', {}, link('./', '← All relays')), heading, error, body),
    async refresh() {
      let detail;
      try {
        detail = await call(`__emulator/relays/${encodeURIComponent(id)}`);
      } catch (failure) {
        if (failure.status !== 404) throw failure;
        fill(body, h('p', { role: 'alert' }, `Nothing is known by the id ${id}: no transaction, legacy record, or refused request the journal still holds.`));
        return;
      }
      error.hidden = true;
      fill(
        heading,
        `${detail.row.source === 'refused' ? 'Refused request' : detail.row.source === 'legacy' ? 'Legacy record' : 'Transaction'} `,
        h('span', { class: 'mono' }, id),
      );
      fill(body, sections(detail));
    },
    showError(failure) {
      error.textContent = failure.message;
      error.hidden = false;
    },
  };
}

function sections(detail) {
  const { row, transaction, meta, request, problem, legacy, strictBreaks, appMemos, idlInstructions } = detail;
  const memos = new Map(appMemos.map((memo) => [memo.instruction - 1, memo]));
  // Decoded by the app's IDLs: `2` for the second instruction, `2.1` for the first it called.
  const decoded = new Map(idlInstructions.map((ix) => [ix.inner === null ? `${ix.instruction}` : `${ix.instruction}.${ix.inner}`, ix]));
  return [
    section('summary', 'Summary', [
      definitions([
        ['Status', h('span', { id: 'detail-status' }, statusBadge(row.status))],
        ['Operation', h('span', {}, operationText(row))],
        ['Received', `${row.time} (this machine's clock, when the request came)`],
        ['Signature', row.signature ? h('code', {}, row.signature) : null],
        ['Policy', h('span', { id: 'detail-policy' }, policyText(row))],
        ['HTTP status', row.httpStatus === null ? undefined : String(row.httpStatus)],
        ['Fee', row.fee === null ? undefined : `${lamports(row.fee)} (${sol(row.fee)})`],
        ['Sponsor exposure', row.sponsorExposure === null ? undefined : `${lamports(row.sponsorExposure)} beyond the fee`],
        ['Rent', rentNote(row, transaction, meta)],
        ['Slot', detail.slot === null ? undefined : String(detail.slot)],
        [
          'Block time',
          detail.blockTime === null
            ? undefined
            : `${blockTimeText(detail.blockTime)} (the ledger's clock: seeded, it starts at its genesis time and moves with slots)`,
        ],
        ['Compute units', meta ? String(meta.computeUnitsConsumed) : undefined],
        ['Error', row.error ? h('span', { id: 'detail-error' }, ledgerError(row.error, row.errorRaw)) : undefined],
        ['Legacy record', row.legacyId ?? undefined],
      ]),
    ]),
    problem
      ? section('problem', 'Why it was refused', [
          definitions(
            Object.entries(problem)
              .filter(([, value]) => typeof value !== 'object')
              .map(([key, value]) => [key, String(value)]),
          ),
          json(problem, 'The error body'),
        ])
      : null,
    strictBreaks.length
      ? section('strict', 'What strict would refuse', [
          table(
            'Rules the strict profile would break, and what each leaves the fee payer unable to get back',
            ['Rule', 'Code', 'Detail', 'Exposure'],
            strictBreaks.map((broken) =>
              h(
                'tr',
                {},
                h('td', {}, broken.rule),
                h('td', {}, broken.code),
                h('td', {}, broken.detail),
                h('td', { class: 'number' }, lamports(broken.exposure)),
              ),
            ),
          ),
        ])
      : null,
    transaction
      ? section('instructions', 'Instructions', [
          h(
            'ol',
            { class: 'instructions' },
            transaction.message.instructions.map((ix, at) => instruction(ix, { memo: memos.get(at), decoded: decoded.get(`${at + 1}`) })),
          ),
        ])
      : section('instructions', 'Instructions', [h('p', {}, 'The request carried no transaction that could be decoded.')]),
    meta?.innerInstructions?.length
      ? section('inner', 'Inner instructions', [
          h(
            'ol',
            { class: 'instructions' },
            meta.innerInstructions.map((inner) =>
              h(
                'li',
                { value: inner.index + 1 },
                h('p', { class: 'muted' }, `Called by instruction ${inner.index + 1}`),
                h(
                  'ol',
                  { class: 'instructions' },
                  inner.instructions.map((ix, place) => instruction(ix, { decoded: decoded.get(`${inner.index + 1}.${place + 1}`) })),
                ),
              ),
            ),
          ),
        ])
      : null,
    transaction
      ? section('signatures', 'Signatures', [
          h(
            'ol',
            { class: 'mono list' },
            transaction.signatures.map((signature) => h('li', {}, signature)),
          ),
        ])
      : null,
    transaction ? section('accounts', 'Accounts and balances', [accounts(transaction, meta)]) : null,
    meta && (meta.preTokenBalances.length || meta.postTokenBalances.length) ? section('tokens', 'Token balances', [tokenBalances(meta)]) : null,
    meta ? section('logs', 'Logs', [h('pre', { class: 'logs', tabindex: 0, 'aria-label': 'Program logs' }, meta.logMessages.join('\n') || '(none)')]) : null,
    request
      ? section('request', 'Request and response', [
          definitions([
            ['Request', `${request.method} ${request.path}${request.query}`],
            ['Answered', `${request.status} in ${request.durationMs} ms`],
            ['Journal id', request.id],
          ]),
          h('h3', {}, 'Request body'),
          json(request.requestBody, 'Request body'),
          h('h3', {}, 'Response body'),
          json(request.responseBody, 'Response body'),
        ])
      : section('request', 'Request and response', [h('p', {}, 'The request journal no longer holds the request (or it came through no HTTP request).')]),
    legacy ? section('legacy', 'Legacy transaction record', [json(legacy, 'Legacy transaction record')]) : null,
  ];
}

function section(id, title, children) {
  return h('section', { id: `detail-${id}`, class: 'panel', 'aria-labelledby': `detail-${id}-title` }, h('h2', { id: `detail-${id}-title` }, title), children);
}

/**
 * What the fee payer paid beyond the fee (rent of accounts it created), and whether it comes back:
 * sponsor exposure counts only what cannot; rent of an account whose close authority is the fee
 * payer returns to it on Account/close.
 */
function rentNote(row, transaction, meta) {
  if (!transaction || !meta || row.fee === null) return undefined;
  const paid = meta.preBalances[0] - meta.postBalances[0] - row.fee;
  if (!(paid > 0)) return undefined;
  const exposure = row.sponsorExposure ?? 0;
  const back = paid - exposure;
  return h(
    'span',
    { id: 'detail-rent' },
    `The fee payer also paid ${lamports(paid)} (${sol(paid)}) of rent for accounts this transaction created. `,
    back > 0
      ? `${lamports(back)} of it comes back to the fee payer when the account is closed (its close authority is the fee payer, so Account/close ` +
          `returns the rent)`
      : '',
    exposure > 0 ? `${back > 0 ? '; ' : ''}${lamports(exposure)} cannot come back: that is the sponsor exposure` : '',
    '.',
  );
}

/** The lookup table each loaded key came from: the runtime loads every table's writable addresses, then every table's read-only ones. */
function loadedFrom(message) {
  const lookups = message.addressTableLookups ?? [];
  return [
    ...lookups.flatMap((lookup) => lookup.writableIndexes.map(() => lookup.accountKey)),
    ...lookups.flatMap((lookup) => lookup.readonlyIndexes.map(() => lookup.accountKey)),
  ];
}

function accounts(transaction, meta) {
  const tables = loadedFrom(transaction.message);
  const staticKeys = transaction.message.accountKeys.filter((key) => key.source !== 'lookupTable').length;
  const rows = transaction.message.accountKeys.map((key, index) => {
    const before = meta?.preBalances[index];
    const after = meta?.postBalances[index];
    const change = before === undefined ? null : after - before;
    return h(
      'tr',
      {},
      h('td', { class: 'number' }, String(index)),
      h('th', { scope: 'row' }, addressLink(key.pubkey, { full: true })),
      h(
        'td',
        {},
        [key.signer ? 'signer' : null, key.writable ? 'writable' : null].filter(Boolean).join(', ') || 'read-only',
        ...(key.source === 'lookupTable' && tables[index - staticKeys] ? [', loaded from table ', addressLink(tables[index - staticKeys])] : []),
      ),
      h('td', { class: 'number' }, before === undefined ? '—' : sol(before)),
      h('td', { class: 'number' }, after === undefined ? '—' : sol(after)),
      h('td', { class: `number ${change < 0 ? 'negative' : ''}` }, change === null ? '—' : lamports(change)),
    );
  });
  return table('Accounts the transaction names, with their balances before and after', ['#', 'Address', 'Role', 'Before', 'After', 'Change'], rows);
}

function tokenBalances(meta) {
  const after = new Map(meta.postTokenBalances.map((balance) => [balance.accountIndex, balance]));
  const before = new Map(meta.preTokenBalances.map((balance) => [balance.accountIndex, balance]));
  const indexes = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  const rows = indexes.map((index) => {
    const any = after.get(index) ?? before.get(index);
    return h(
      'tr',
      {},
      h('td', { class: 'number' }, String(index)),
      h('td', {}, addressLink(any.mint)),
      h('td', {}, any.owner ? addressLink(any.owner) : '—'),
      h('td', { class: 'number' }, before.get(index)?.uiTokenAmount.uiAmountString ?? '—'),
      h('td', { class: 'number' }, after.get(index)?.uiTokenAmount.uiAmountString ?? '—'),
    );
  });
  return table('Token balances before and after', ['Account #', 'Mint', 'Owner', 'Before', 'After'], rows);
}
