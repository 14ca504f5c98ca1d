// Where the emulator serves, its key, its fee payer's balance, its engine, queue and clock.

import { call } from './api.js';
import { addressLink, definitions, fill, h, sol } from './dom.js';

export function overviewPanel() {
  const body = h('div', {}, h('p', {}, 'Loading…'));
  return {
    element: h('section', { id: 'overview', class: 'panel', 'aria-labelledby': 'overview-title' }, h('h2', { id: 'overview-title' }, 'Overview'), body),
    async refresh() {
      const overview = await call('__emulator/overview');
      const { queue, clock, transactions } = overview;
      fill(
        body,
        definitions([
          ['Base URL', h('code', {}, overview.baseUrl)],
          ['RPC URL', h('code', {}, overview.rpcUrl)],
          ['API key', h('code', {}, overview.apiKey)],
          ['Fee payer', addressLink(overview.feePayer.address, { full: true })],
          ['Fee payer balance', h('span', { id: 'fee-payer-balance', 'data-lamports': overview.feePayer.lamports }, sol(overview.feePayer.lamports))],
          ['Engine', h('span', { id: 'engine' }, overview.engine)],
          ['Policy profile', overview.policyProfile],
          [
            'Queue',
            h(
              'span',
              { id: 'queue-state' },
              `${queue.paused ? 'paused' : 'running'}, ${queue.pending} waiting${queue.latencyMs ? `, ${queue.latencyMs} ms latency` : ''}`,
            ),
          ],
          ['Slot', h('span', { id: 'slot' }, String(clock.slot))],
          ['Block height', String(clock.blockHeight)],
          ['Transactions', `${transactions.queued} queued, ${transactions.processed} processed, ${transactions.failed} failed`],
          [
            'Programs',
            overview.programs.length === 0
              ? h('span', { id: 'programs' }, 'none of the app’s')
              : h(
                  'ul',
                  { id: 'programs' },
                  ...overview.programs.map((program) =>
                    h(
                      'li',
                      {},
                      addressLink(program.programId),
                      ` ${program.loader === 'upgradeable' ? 'upgradeable' : 'BPF Loader 2'}, `,
                      program.origin === 'start' ? 'loaded at start' : 'deployed since',
                    ),
                  ),
                ),
          ],
          ['Version', overview.version],
        ]),
      );
    },
  };
}
