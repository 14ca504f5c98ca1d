// One instruction of a transaction's detail: decoded fields (addresses as links, by name), a Kin app
// memo read into its fields, or the raw accounts and data of a program the RPC does not decode.

import { addressLink, definitions, h, nameOf } from './dom.js';

/** An instruction as the RPC's jsonParsed renders it, and its decoded app memo when it is one. */
export function instruction(ix, memo) {
  if (memo) {
    return h(
      'li',
      { class: 'app-memo' },
      h('p', { class: 'instruction-name' }, `${ix.program}: Kin app memo`),
      definitions([
        ['App index', String(memo.appIndex)],
        ['Transaction type', `${memo.type} (${memo.typeName})`],
        ['Memo version', String(memo.version)],
        ['Foreign key', /^0+$/.test(memo.foreignKey) ? 'none (all zero)' : h('code', {}, memo.foreignKey)],
        ['Memo text', h('code', {}, ix.parsed)],
      ]),
    );
  }
  if (ix.parsed) {
    const info = typeof ix.parsed === 'object' ? (ix.parsed.info ?? {}) : { data: ix.parsed };
    return h(
      'li',
      {},
      h('p', { class: 'instruction-name' }, `${ix.program}: ${ix.parsed.type ?? 'memo'}`),
      definitions(
        Object.entries(info).map(([key, value]) => [
          key,
          value !== null && typeof value === 'object' ? JSON.stringify(value) : isAddress(value) ? addressLink(value, { full: true }) : String(value),
        ]),
      ),
    );
  }
  const program = nameOf(ix.programId);
  return h(
    'li',
    {},
    h('p', { class: 'instruction-name' }, `${program ?? `Program ${ix.programId}`} (not decoded)`),
    definitions([
      ['program', addressLink(ix.programId, { full: true })],
      ['accounts', ix.accounts.join(', ')],
      ['data (base58)', ix.data],
    ]),
  );
}

function isAddress(value) {
  return typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value);
}
