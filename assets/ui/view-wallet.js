// One address: its SOL, its token accounts and balances, its history, and the faucet for it.

import { call } from './api.js';
import { addressLink, blockTimeText, definitions, fill, h, ledgerError, link, relayLink, sol, table } from './dom.js';
import { faucetForm } from './panel-controls.js';

export function walletView(address, app) {
  const body = h('div', {}, h('p', {}, 'Loading…'));
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const output = h('output', { id: 'wallet-faucet-result', class: 'result', 'aria-live': 'polite' });
  return {
    title: `Wallet ${address.slice(0, 12)}`,
    element: h(
      'article',
      { class: 'wallet', 'aria-labelledby': 'wallet-title' },
      h('p', {}, link('./', '← All relays')),
      h('h1', { id: 'wallet-title' }, 'Wallet ', h('span', { class: 'mono' }, address)),
      error,
      body,
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'wallet-faucet-title' },
        h('h2', { id: 'wallet-faucet-title' }, 'Fund this wallet'),
        faucetForm({ id: 'wallet-faucet', address, output, app }),
        output,
      ),
    ),
    async refresh() {
      let wallet;
      try {
        wallet = await call(`__emulator/wallets/${encodeURIComponent(address)}`);
      } catch (failure) {
        if (failure.status !== 400) throw failure;
        fill(body, h('p', { role: 'alert' }, failure.message));
        return;
      }
      error.hidden = true;
      fill(
        body,
        h(
          'section',
          { class: 'panel', 'aria-labelledby': 'wallet-balance-title' },
          h('h2', { id: 'wallet-balance-title' }, 'Balance'),
          definitions([
            ['SOL', h('span', { id: 'wallet-sol', 'data-lamports': wallet.lamports }, sol(wallet.lamports))],
            ['Owner program', wallet.owner ? h('code', {}, wallet.owner) : 'no account on the ledger'],
            ['Relays', link(`./?wallet=${encodeURIComponent(address)}`, 'Relays that name this wallet')],
          ]),
          table(
            'Token accounts',
            ['Mint', 'Token account', 'Amount', 'Base units'],
            wallet.tokens.map((token) =>
              h(
                'tr',
                {},
                h('td', {}, addressLink(token.mint, { full: true })),
                h('td', {}, addressLink(token.tokenAccount)),
                h('td', { class: 'number' }, token.uiAmountString),
                h('td', { class: 'number' }, token.amount),
              ),
            ),
            { id: 'wallet-tokens' },
          ),
        ),
        h(
          'section',
          { class: 'panel', 'aria-labelledby': 'wallet-history-title' },
          h('h2', { id: 'wallet-history-title' }, 'History'),
          table(
            `The newest ${wallet.history.length} transactions, newest first`,
            ['Signature', 'Slot', 'Block time (ledger clock)', 'Result', 'Memo'],
            wallet.history.map((entry) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, relayLink(entry.signature)),
                h('td', { class: 'number' }, String(entry.slot)),
                h('td', {}, blockTimeText(entry.blockTime)),
                h('td', { class: entry.err === null ? null : 'error-text' }, entry.err === null ? 'ok' : ['failed: ', ledgerError(entry.errorText, entry.err)]),
                h('td', {}, entry.memo ?? ''),
              ),
            ),
            { id: 'wallet-history' },
          ),
        ),
      );
    },
    showError(failure) {
      error.textContent = failure.message;
      error.hidden = false;
    },
  };
}
