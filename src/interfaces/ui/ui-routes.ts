import type { UiDeps } from './ui-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { respond } from '../../base/http/respond.ts';
import { uiAsset } from './ui-assets.ts';

/**
 * Headers of every UI response. The page shows what clients sent (memos, logs, bodies) and never
 * as markup, and the policy says so too: scripts, styles and connections from this origin only.
 * No referrer, so that a `?token=` in the address never leaves the page.
 */
const UI_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The page, with a `<base>` that leads back to the origin's root from the path it was served at
 * (`/` → `./`, `/tx/<id>` → `../`), so that its files and the /__emulator routes resolve there, and
 * behind a proxy that keeps the path too.
 */
async function page(pathname: string): Promise<Response> {
  const html = await uiAsset('index.html');
  if (!html) throw new RelayError('INTERNAL_ERROR', 'The web UI files (assets/ui) are missing from this installation.');
  const depth = pathname.split('/').filter((segment) => segment.length > 0).length;
  const base = depth === 0 ? './' : '../'.repeat(depth - (pathname.endsWith('/') ? 0 : 1) || 1);
  return respond(html.text.replace('<base href="./" />', `<base href="${base}" />`), {
    headers: { 'Content-Type': html.mediaType, 'Cache-Control': 'no-store', ...UI_HEADERS },
  });
}

const pageRoute = (path: string, operationId: string): Route<UiDeps> => ({
  method: 'GET',
  path,
  api: 'meta',
  operationId,
  handle: ({ url }) => page(url.pathname),
});

/**
 * The web UI: its page at `/`, at `/tx/<id>` (a relay's detail, where explorer links lead), at
 * `/address/<address>` and `/account/<address>` (a wallet: Kinetic's SDKs link both), and its files
 * under `/ui/`. Open like /docs: the page and its
 * files hold nothing; everything it shows comes from the /__emulator routes and their admin guard.
 */
export const uiRoutes: Route<UiDeps>[] = [
  pageRoute('/', 'getUi'),
  pageRoute('/tx/{id}', 'getUiRelay'),
  pageRoute('/address/{address}', 'getUiAddress'),
  pageRoute('/account/{address}', 'getUiAccount'),
  {
    method: 'GET',
    path: '/ui/{asset}',
    api: 'meta',
    operationId: 'getUiAsset',
    async handle({ params }) {
      const asset = params.asset === 'index.html' ? null : await uiAsset(params.asset!);
      if (!asset) throw new RelayError('ROUTE_NOT_FOUND', `The web UI has no file ${params.asset}.`);
      return respond(asset.text, { headers: { 'Content-Type': asset.mediaType, 'Cache-Control': 'no-cache', ...UI_HEADERS } });
    },
  },
];
