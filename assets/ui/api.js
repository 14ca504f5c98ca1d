// Talking to the emulator: the /__emulator routes, with the admin token when the emulator wants one.
//
// On a non-loopback bind the /__emulator routes want X-Admin-Token. A browser cannot add a header
// to a navigation, so the token comes once, in the address (`/?token=…`, as the start-up banner
// prints it) or typed into the page; the page keeps it in sessionStorage and sends it as a header
// on every request. Not a cookie: a header is never sent by the browser on its own, so another site
// cannot make this browser call the controls (no CSRF), and sessionStorage is this tab's only and is
// gone when the tab closes. The token is taken out of the address at once, so it stays out of the
// history and of bookmarks (and the page sends no Referer).

const TOKEN_KEY = 'relay-emulator.admin-token';

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && typeof body === 'object' ? (body.detail ?? body.message ?? body.title) : null;
    super(detail ? `${detail} (HTTP ${status})` : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }

  /** The admin guard said no: no token, or the wrong one. */
  get needsToken() {
    return this.status === 401 || this.status === 403;
  }
}

/** Moves a `?token=` from the address into this tab's storage. */
export function adoptTokenFromAddress() {
  const url = new URL(location.href);
  const token = url.searchParams.get('token');
  if (token === null) return;
  if (token !== '') sessionStorage.setItem(TOKEN_KEY, token);
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url);
}

export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export function headers(extra = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return { Accept: 'application/json', ...(token ? { 'X-Admin-Token': token } : {}), ...extra };
}

/**
 * Calls a route relative to the page's base (the origin's root): `call('__emulator/overview')`.
 * Resolves with the JSON body; throws an ApiError for any status but 2xx.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 */
export async function call(path, { method = 'GET', body } = {}) {
  const response = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/** A query string from the entries whose value is not empty. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
