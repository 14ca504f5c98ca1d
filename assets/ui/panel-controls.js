// Buttons for the test controls. Each calls its /__emulator route: nothing here does what a
// control does, it only asks the emulator to.

import { call } from './api.js';
import { h, sol } from './dom.js';
import { exportState, importState } from './state-transfer.js';

const FAULT_OPERATIONS = ['any', 'create', 'close', 'send', 'sendbatch'];
const FAULT_KINDS = ['problem', 'ledger', 'delay'];

/** Whole lamports from a decimal SOL amount typed by hand ('1.5' → 1500000000), exactly. */
export function lamportsOf(text) {
  const match = /^\s*(\d+)(?:\.(\d{0,9}))?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not an amount of SOL (up to 9 decimals).`);
  return Number(BigInt(match[1]) * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0')));
}

/** A form whose submit calls `action(values)` and shows what the emulator answered in `output`. */
function controlForm({ id, legend, fields, buttons, output, app }) {
  return h(
    'form',
    {
      id,
      class: 'control',
      async onsubmit(event) {
        event.preventDefault();
        const button = event.submitter;
        const values = Object.fromEntries([...new FormData(event.target)].map(([name, value]) => [name, String(value).trim()]));
        const chosen = buttons.find((candidate) => candidate.name === button?.value) ?? buttons[0];
        output.textContent = `${chosen.label}…`;
        try {
          const answer = await chosen.action(values);
          output.textContent = `${chosen.label}: ${chosen.describe ? chosen.describe(answer) : 'done'}`;
          output.dataset.outcome = 'ok';
        } catch (error) {
          if (error?.needsToken) return app.failed(error);
          output.textContent = `${chosen.label} failed: ${error.message}`;
          output.dataset.outcome = 'error';
        }
        app.refresh();
      },
    },
    h(
      'fieldset',
      {},
      h('legend', {}, legend),
      fields,
      h(
        'div',
        { class: 'buttons' },
        buttons.map((button) => h('button', { type: 'submit', name: 'button', value: button.name }, button.label)),
      ),
    ),
  );
}

export function field(id, label, attributes = {}) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name: attributes.name ?? id.replace(/^[a-z]+-/, ''), autocomplete: 'off', spellcheck: 'false', ...attributes }),
  );
}

function select(id, label, options) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h(
      'select',
      { id, name: id.replace(/^[a-z]+-/, '') },
      options.map((option) => h('option', { value: option }, option)),
    ),
  );
}

/** The faucet form: SOL and/or tokens to an address. */
export function faucetForm({ id = 'faucet', address = '', output, app }) {
  return controlForm({
    id,
    legend: 'Faucet',
    output,
    app,
    fields: [
      field(`${id}-address`, 'Address', { value: address, required: true, placeholder: 'base58', name: 'address' }),
      field(`${id}-sol`, 'SOL', { value: '1', inputmode: 'decimal', name: 'sol' }),
      field(`${id}-mint`, 'Mint (optional)', { placeholder: 'base58', name: 'mint' }),
      field(`${id}-amount`, 'Tokens, base units (optional)', { inputmode: 'numeric', name: 'amount' }),
    ],
    buttons: [
      {
        name: 'fund',
        label: 'Fund',
        action: ({ address: to, sol, mint, amount }) =>
          call('__emulator/faucet', {
            method: 'POST',
            body: { address: to, ...(sol ? { lamports: lamportsOf(sol) } : {}), ...(mint ? { mint } : {}), ...(amount ? { amount } : {}) },
          }),
        describe: (answer) =>
          `${answer.address} now holds ${sol(answer.lamports)} (${answer.lamports} ` +
          `lamports)${answer.tokenAccount ? `, and ${answer.tokenAmount} base units of the mint in ${answer.tokenAccount}` : ''}`,
      },
    ],
  });
}

export function controlsPanel(app) {
  const output = h('output', { id: 'control-result', class: 'result', 'aria-live': 'polite' }, 'Each button calls its /__emulator route.');
  const stateFile = h('input', { id: 'state-file', name: 'file', type: 'file', accept: 'application/json,.json' });
  const post = (path, body) => call(`__emulator/${path}`, { method: 'POST', body: body ?? {} });
  const queue = (answer) => `${answer.paused ? 'paused' : 'running'}, ${answer.pending} waiting`;
  return {
    element: h(
      'details',
      { id: 'controls', class: 'panel' },
      h('summary', {}, h('h2', { id: 'controls-title' }, 'Controls'), h('span', { class: 'muted' }, ' faucet, mints, queue, clock, faults, state, reset')),
      h(
        'div',
        { class: 'control-grid' },
        faucetForm({ output, app }),
        controlForm({
          id: 'mint',
          legend: 'Create a mint',
          output,
          app,
          fields: [field('mint-decimals', 'Decimals', { value: '6', inputmode: 'numeric', required: true }), field('mint-symbol', 'Symbol (optional)')],
          buttons: [
            {
              name: 'create',
              label: 'Create mint',
              action: ({ decimals, symbol }) => post('mints', { decimals: Number(decimals), ...(symbol ? { symbol } : {}) }),
              describe: (mint) => `${mint.mint} (${mint.decimals} decimals)`,
            },
          ],
        }),
        controlForm({
          id: 'queue',
          legend: 'Queue',
          output,
          app,
          fields: [],
          buttons: [
            { name: 'pause', label: 'Pause', action: () => post('queue/pause'), describe: queue },
            { name: 'resume', label: 'Resume', action: () => post('queue/resume'), describe: queue },
            {
              name: 'step',
              label: 'Step',
              action: () => post('queue/step'),
              describe: (answer) => `processed ${answer.processed.length ? answer.processed.join(', ') : 'nothing'}`,
            },
            { name: 'flush', label: 'Flush', action: () => post('queue/flush'), describe: queue },
          ],
        }),
        controlForm({
          id: 'clock',
          legend: 'Clock and blockhash',
          output,
          app,
          fields: [field('clock-slots', 'Slots to warp', { value: '100', inputmode: 'numeric', name: 'slots' })],
          buttons: [
            { name: 'warp', label: 'Warp', action: ({ slots }) => post('clock', { warpSlots: Number(slots) }), describe: (clock) => `slot ${clock.slot}` },
            { name: 'expire', label: 'Expire blockhash', action: () => post('blockhash/expire'), describe: (answer) => `new blockhash ${answer.Blockhash}` },
          ],
        }),
        controlForm({
          id: 'fault',
          legend: 'Inject a fault',
          output,
          app,
          fields: [
            select('fault-operation', 'Operation', FAULT_OPERATIONS),
            select('fault-kind', 'Kind', FAULT_KINDS),
            field('fault-code', 'Problem code (problem)', { value: 'QUEUE_FULL', name: 'code' }),
            field('fault-ledger', 'Ledger error (ledger)', { name: 'ledgerError' }),
            field('fault-delay', 'Delay ms (delay)', { value: '1000', inputmode: 'numeric', name: 'delayMs' }),
            field('fault-count', 'Count', { value: '1', inputmode: 'numeric', name: 'count' }),
          ],
          buttons: [
            {
              name: 'inject',
              label: 'Inject fault',
              action: ({ operation, kind, code, ledgerError, delayMs, count }) =>
                post('faults', {
                  operation,
                  kind,
                  count: Number(count || 1),
                  ...(kind === 'problem' ? { code } : kind === 'ledger' ? (ledgerError ? { ledgerError } : {}) : { delayMs: Number(delayMs) }),
                }),
              describe: (fault) => `${fault.id} armed for ${fault.remaining} ${fault.operation} relay(s)`,
            },
            { name: 'clear', label: 'Clear faults', action: () => call('__emulator/faults', { method: 'DELETE' }) },
          ],
        }),
        controlForm({
          id: 'state',
          legend: 'State',
          output,
          app,
          fields: [
            h('p', { class: 'muted' }, 'Everything: ledger, relays, history, legacy records, queue. The file is the --state-file format, checksummed.'),
            h('div', { class: 'field' }, h('label', { for: 'state-file' }, 'State file to import'), stateFile),
          ],
          buttons: [
            { name: 'export', label: 'Export', action: exportState, describe: (saved) => `saved ${saved.name} (${saved.bytes.toLocaleString('en-US')} bytes)` },
            {
              name: 'import',
              label: 'Import',
              action: () => importState(stateFile),
              describe: (done) => `${done.name}: ${done.transactions} transactions, ${done.queued} queued again`,
            },
          ],
        }),
        controlForm({
          id: 'reset',
          legend: 'Reset',
          output,
          app,
          fields: [h('p', { class: 'muted' }, 'Back to the fixtures: ledger, records, queue, journals and faults.')],
          buttons: [{ name: 'reset', label: 'Reset emulator', action: () => post('reset') }],
        }),
      ),
      output,
    ),
  };
}
