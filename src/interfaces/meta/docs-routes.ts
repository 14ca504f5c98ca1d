import type { MetaDeps } from './meta-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { readFileSync } from 'node:fs';
import { ASSETS } from '../../base/assets.ts';
import { pathnameOf } from '../../base/http/request-url.ts';
import { respond } from '../../base/http/respond.ts';

let redocBundle: Uint8Array<ArrayBuffer> | undefined;

/** Redoc's standalone bundle, shipped as a file (the machine may be offline: no CDN). Read once. */
function redocScript(): Uint8Array<ArrayBuffer> {
  redocBundle ??= new Uint8Array(readFileSync(ASSETS.redocScript));
  return redocBundle;
}

/**
 * The page links its script and the contract with relative URLs, so that it also works behind a
 * path-preserving proxy; `up` is what leads from the page's directory back to the root: '' at
 * /docs, '../' at /docs/ (where a browser resolves relative URLs against /docs/).
 */
function docsPage(up: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>relay-emulator API reference</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="${up}openapi.yaml"></redoc>
    <script src="${up}docs/redoc.standalone.js"></script>
  </body>
</html>
`;
}

/**
 * The docs page loads nothing from anywhere but the emulator: scripts, the contract and images from
 * its own origin (Redoc's inline styles and data: images aside; its schema validator compiles code
 * with `new Function`, hence 'unsafe-eval'), and a browser refuses any other fetch.
 */
const DOCS_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src " +
  "'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** GET /docs: the contract rendered by Redoc, served offline with its script. */
export const docsRoutes: Route<MetaDeps>[] = [
  {
    method: 'GET',
    path: '/docs',
    api: 'meta',
    operationId: 'getDocs',
    async handle({ request }) {
      const up = pathnameOf(request.url).endsWith('/') ? '../' : '';
      return respond(docsPage(up), { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': DOCS_CSP } });
    },
  },
  {
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    api: 'meta',
    operationId: 'getDocsScript',
    async handle() {
      return respond(redocScript(), {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
      });
    },
  },
];
