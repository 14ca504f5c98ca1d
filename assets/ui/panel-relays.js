// The live list of relays, legacy records, RPC sends and refused requests, with its filters.

import { call, query } from './api.js';
import { fill, h, lamports, ledgerError, relayLink, sol, statusBadge, table, time } from './dom.js';

const OPERATIONS = ['create', 'close', 'send', 'sendbatch', 'rpc', 'legacy', 'kora', 'request'];
/** A legacy relay's route, as the Kinetic SDK calls it. */
const LEGACY_ROUTES = { legacyMakeTransfer: 'make-transfer', legacyCreateAccount: 'account/create', legacyCloseAccount: 'account/close' };

/** What a row's operation was: `send (sendTransaction)`, `legacy make-transfer`, `request (getConfig)`. */
export function operationText(relay) {
  if (relay.operation === 'legacy' && LEGACY_ROUTES[relay.operationId]) return ['legacy ', h('span', { class: 'route' }, LEGACY_ROUTES[relay.operationId])];
  return [relay.operation, relay.operationId ? h('span', { class: 'muted' }, ` ${relay.operationId}`) : null];
}
const STATUSES = ['Queued', 'Processed', 'Confirmed', 'Finalized', 'Failed', 'Refused'];
const FILTERS = ['wallet', 'mint', 'operation', 'status', 'group'];
/** What the list can be grouped by: the test a relay is charged to (X-Relay-Emulator-Test, relay-emulator/vitest), else its app. */
const GROUPS = ['test'];

export function relaysPanel(searchParams, app) {
  const filter = Object.fromEntries(FILTERS.map((name) => [name, searchParams.get(name) ?? '']));
  const body = h('div', { class: 'scroll' }, h('p', {}, 'Loading…'));
  let typing = null;

  const changed = (event) => {
    filter[event.target.name] = event.target.value.trim();
    const url = new URL(location.href);
    for (const name of FILTERS) {
      if (filter[name]) url.searchParams.set(name, filter[name]);
      else url.searchParams.delete(name);
    }
    history.replaceState(history.state, '', url);
    clearTimeout(typing);
    typing = setTimeout(() => app.refresh(), event.type === 'input' ? 300 : 0);
  };
  const text = (name, label) => [
    h('label', { for: `filter-${name}` }, label),
    h('input', { id: `filter-${name}`, name, value: filter[name], placeholder: 'address', autocomplete: 'off', spellcheck: 'false', oninput: changed }),
  ];
  const choice = (name, label, options) => [
    h('label', { for: `filter-${name}` }, label),
    h(
      'select',
      { id: `filter-${name}`, name, onchange: changed },
      h('option', { value: '' }, 'any'),
      options.map((option) => h('option', { value: option, selected: filter[name] === option }, option)),
    ),
  ];

  return {
    element: h(
      'section',
      { id: 'relays', class: 'panel', 'aria-labelledby': 'relays-title' },
      h('h2', { id: 'relays-title' }, 'Relays'),
      h(
        'form',
        { class: 'filters', role: 'search', 'aria-label': 'Filter relays', onsubmit: (event) => event.preventDefault() },
        text('wallet', 'Wallet'),
        text('mint', 'Mint'),
        choice('operation', 'Operation', OPERATIONS),
        choice('status', 'Status', STATUSES),
        h('label', { for: 'filter-group' }, 'Group by'),
        h(
          'select',
          { id: 'filter-group', name: 'group', onchange: changed },
          h('option', { value: '' }, 'nothing'),
          GROUPS.map((option) => h('option', { value: option, selected: filter.group === option }, option)),
        ),
      ),
      body,
    ),
    async refresh() {
      const { group, ...served } = filter;
      const { relays } = await call(`__emulator/relays${query(served)}`);
      // What each test's wallet was asked (relay-emulator/playwright), shown beside the test's relays.
      // With a filter on, only the tests it leaves relays of (a wallet request names no mint nor status).
      const filtered = Object.values(served).some((value) => value !== '');
      const { requests } = group === 'test' ? await call('__emulator/wallet-requests') : { requests: [] };
      const total = relays.reduce((sum, relay) => sum + (relay.sponsorCost ?? 0), 0);
      const caption =
        "Relays and refused requests, newest first (received: this machine's clock). Select one for its detail. " +
        `The sponsor paid ${lamports(total)} (${sol(total)}) for these.`;
      fill(
        body,
        table(
          caption,
          ['Received', 'Operation', 'Signature or id', 'Status', 'Policy', 'Fee', 'Sponsor cost', 'Sponsor exposure', 'Error'],
          group === 'test' ? grouped(relays, requests, filtered) : relays.map(row),
          {
            id: 'relay-table',
          },
        ),
      );
    },
  };
}

function row(relay) {
  return h(
    'tr',
    { 'data-id': relay.id, 'data-status': relay.status, 'data-operation': relay.operation },
    h('td', {}, time(relay.time)),
    h('td', {}, operationText(relay)),
    h('th', { scope: 'row' }, relayLink(relay.id)),
    h('td', { class: 'status-cell' }, statusBadge(relay.status), relay.httpStatus !== null ? h('span', { class: 'muted' }, ` ${relay.httpStatus}`) : null),
    h('td', { class: 'policy' }, policyText(relay)),
    h('td', { class: 'number' }, relay.fee === null ? '—' : lamports(relay.fee)),
    h('td', { class: 'number' }, relay.sponsorCost === null ? '—' : lamports(relay.sponsorCost)),
    h('td', { class: 'number' }, relay.sponsorExposure === null ? '—' : lamports(relay.sponsorExposure)),
    h('td', { class: 'error-text' }, ledgerError(relay.error, relay.errorRaw)),
  );
}

/**
 * The rows under a heading row per test (the label each relay is charged to, in the order each first
 * appears), each heading with its relays' count and what they cost the sponsor, then what the test's
 * wallet was asked (a test whose wallet was asked and that relayed nothing has its group too, unless
 * a filter is on).
 */
function grouped(relays, walletRequests, filtered) {
  const groups = new Map();
  const wallets = new Map();
  const groupOf = (label) => {
    if (!groups.has(label)) groups.set(label, []);
    return groups.get(label);
  };
  for (const relay of relays) groupOf(relay.label ?? (relay.source === 'refused' ? 'refused requests' : 'no test')).push(relay);
  // Oldest first within a test, in the order the wallet answered them.
  for (const request of [...walletRequests].reverse()) {
    const label = request.test ?? 'no test';
    if (filtered && !groups.has(label)) continue;
    groupOf(label);
    if (!wallets.has(label)) wallets.set(label, []);
    wallets.get(label).push(request);
  }
  return [...groups.entries()].flatMap(([label, members]) => {
    const cost = members.reduce((sum, relay) => sum + (relay.sponsorCost ?? 0), 0);
    const heading = h(
      'tr',
      { class: 'group', 'data-group': label },
      h(
        'th',
        { scope: 'rowgroup', colspan: 9 },
        label,
        h('span', { class: 'muted' }, ` · ${members.length} · the sponsor paid ${lamports(cost)} (${sol(cost)})`),
      ),
    );
    const asked = wallets.get(label);
    return [heading, ...(asked ? [walletRow(label, asked)] : []), ...members.map(row)];
  });
}

/** One row: each request the test's wallet answered, in order, with what the user decided and what a transaction asked. */
function walletRow(label, requests) {
  return h(
    'tr',
    { class: 'wallet-requests', 'data-group': label },
    h(
      'td',
      { colspan: 9 },
      h('span', { class: 'muted' }, 'Wallet: '),
      h(
        'ol',
        { class: 'wallet-list' },
        requests.map((request) =>
          h(
            'li',
            { 'data-method': request.method, 'data-outcome': request.outcome, title: request.reason ?? '' },
            `${request.method} ${request.outcome}`,
            request.legacy ? h('span', { class: 'muted' }, ' (window.solana)') : null,
            request.transaction ? h('span', { class: 'muted' }, ` · ${walletPays(request.transaction)}`) : null,
            request.outcome !== 'approved' && request.origin ? h('span', { class: 'muted' }, ` · ${request.origin}`) : null,
          ),
        ),
      ),
    ),
  );
}

function walletPays(transaction) {
  const payer = transaction.walletPaysFee ? 'the user pays the fee' : `fee payer ${transaction.feePayer.slice(0, 4)}…${transaction.feePayer.slice(-4)}`;
  return `${payer}, ${transaction.signers.length} signer${transaction.signers.length === 1 ? '' : 's'}`;
}

/** The policy verdict in words: passed, unchecked, or refused with its rule and code. */
export function policyText(relay) {
  const { policy } = relay;
  const parts = [policy.profile ? `${policy.profile}: ` : '', policy.verdict];
  if (policy.rule) parts.push(` · rule ${policy.rule}`);
  if (policy.code) parts.push(` · ${policy.code}`);
  if (policy.strictRules.length) parts.push(` · strict would refuse (${policy.strictRules.join(', ')})`);
  return h('span', { class: `verdict verdict-${policy.verdict}` }, parts.join(''));
}
