// One instruction of a transaction's detail: decoded fields (addresses as links, by name), a Kin app
// memo read into its fields, an app program's instruction decoded by its IDL, or the raw accounts
// and data of a program nothing decodes.

import { addressLink, definitions, h, nameOf } from './dom.js';

/**
 * An instruction as the RPC's jsonParsed renders it, with its decoded app memo or its IDL's decoding when it has one.
 * @param {any} ix
 * @param {{ memo?: any, decoded?: any }} [found]
 */
export function instruction(ix, { memo, decoded } = {}) {
  if (decoded) return idlInstruction(ix, decoded);
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

/** An app program's instruction as its Anchor IDL names it: arguments, then accounts by name. */
function idlInstruction(ix, decoded) {
  return h(
    'li',
    { class: 'idl-instruction' },
    h('p', { class: 'instruction-name' }, `${decoded.program}: ${decoded.name}`),
    definitions([
      ['program', addressLink(ix.programId, { full: true })],
      ...decoded.args.map((arg) => [`${arg.name} (${arg.type})`, isAddress(arg.value) ? addressLink(arg.value, { full: true }) : h('code', {}, arg.value)]),
      ...decoded.accounts.map((account, at) => [account.name ?? `remaining account ${at + 1}`, addressLink(account.address, { full: true })]),
      ['data (base58)', ix.data],
    ]),
  );
}

function isAddress(value) {
  return typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value);
}
