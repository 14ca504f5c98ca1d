// Building the page: elements from data, never markup from data (what clients sent is shown as text).

/**
 * An element: `h('a', { href: 'x', class: 'y' }, 'text', child)`. Attributes whose value is null,
 * undefined or false are left out; `on*` functions become listeners; children may be strings,
 * numbers, nodes, arrays of those, or null (skipped).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A definition list from [term, value] pairs; pairs whose value is undefined are skipped. */
export function definitions(pairs, attributes = {}) {
  return h(
    'dl',
    { class: 'facts', ...attributes },
    pairs.filter(([, value]) => value !== undefined).flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? '—')]),
  );
}

/** A table with a caption, column headers and rows of cells. */
export function table(caption, headers, rows, attributes = {}) {
  return h(
    'table',
    attributes,
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((header) => h('th', { scope: 'col' }, header)),
      ),
    ),
    h('tbody', {}, rows.length > 0 ? rows : h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, 'Nothing yet.'))),
  );
}

/** JSON, pretty-printed, in a scrollable block a keyboard can reach. */
export function json(value, label) {
  return h('pre', { class: 'json', tabindex: 0, 'aria-label': label }, JSON.stringify(value, null, 2));
}

/** An in-app link: the router handles it without reloading (see app.js). */
export function link(path, text, attributes = {}) {
  return h('a', { href: path, 'data-route': true, ...attributes }, text);
}

/** A long base58 string cut in the middle for a table, whole in its title. */
export function short(text) {
  if (typeof text !== 'string' || text.length <= 20) return text ?? '—';
  return `${text.slice(0, 8)}…${text.slice(-8)}`;
}

/** Names the emulator knows (programs, fixture mints' symbols, fixture keys), by address: the overview's `names`. */
const names = new Map();

export function setNames(record) {
  names.clear();
  for (const [address, name] of Object.entries(record ?? {})) names.set(address, name);
}

/** The name of an address, when the emulator knows one. */
export function nameOf(address) {
  return names.get(address);
}

/** A link to an address's wallet view: its name first when it has one ("USDC 4zMMC9sr…"), the address in full in its title. */
export function addressLink(address, { full = false } = {}) {
  const name = names.get(address);
  const text = full ? address : short(address);
  return link(`address/${encodeURIComponent(address)}`, name ? [h('span', { class: 'name' }, name), ' ', h('span', { class: 'mono' }, text)] : text, {
    class: name ? 'named' : 'mono',
    title: address,
  });
}

/** A ledger error in words, with the raw form beside it (as the RPC reports it). */
export function ledgerError(text, raw) {
  if (!text) return '';
  return raw === null || raw === undefined
    ? text
    : [text, ' ', h('code', { class: 'raw muted', title: 'The error as the RPC reports it' }, JSON.stringify(raw))];
}

/** A link to a relay's detail view. */
export function relayLink(id, text = short(id)) {
  return link(`tx/${encodeURIComponent(id)}`, text, { class: 'mono', title: id });
}

const GROUPED = new Intl.NumberFormat('en-US');

/** Lamports as SOL, exact (no floating point), with the lamports beside it. */
export function sol(lamports) {
  if (lamports === null || lamports === undefined) return '—';
  const value = BigInt(lamports);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const fraction = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${GROUPED.format(abs / 1_000_000_000n)}${fraction ? `.${fraction}` : ''} SOL`;
}

export function lamports(value) {
  return value === null || value === undefined ? '—' : `${GROUPED.format(value)} lamports`;
}

export function time(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  // A time no date can hold is shown as it came, never thrown (toISOString throws a RangeError).
  if (Number.isNaN(date.getTime())) return String(iso);
  return h('time', { datetime: date.toISOString(), title: date.toISOString() }, date.toLocaleTimeString('en-GB', { hour12: false }));
}

/**
 * A ledger clock's unix seconds as ISO 8601, or the seconds themselves when no JavaScript date can
 * hold them: the clock takes any i64 (surfnet_timeTravel can put it 285,000 years ahead), and a page
 * that threw "Invalid time value" showed nothing else (issue 53 item 15).
 */
export function blockTimeText(seconds) {
  const date = new Date(Number(seconds) * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} (unix seconds, past what a date can show)` : date.toISOString();
}

/** A lifecycle status as a badge. */
export function statusBadge(status) {
  return h('span', { class: `status status-${String(status).toLowerCase()}` }, status);
}
