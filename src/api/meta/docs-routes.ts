import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EmulatorRoute } from '../../core/create-fetch.ts';
import { respond } from '../../http/respond.ts';

const require = createRequire(import.meta.url);

let redocBundle: Uint8Array<ArrayBuffer> | undefined;

/** Redoc's standalone bundle from node_modules (the machine may be offline: no CDN). Read once. */
function redocScript(): Uint8Array<ArrayBuffer> {
  redocBundle ??= new Uint8Array(readFileSync(require.resolve('redoc/bundles/redoc.standalone.js')));
  return redocBundle;
}

// Relative URLs: /docs resolves them against the root, so the page also works behind a path-preserving proxy.
const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>relay-emulator API reference</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="openapi.yaml"></redoc>
    <script src="docs/redoc.standalone.js"></script>
  </body>
</html>
`;

/** GET /docs: the contract rendered by Redoc, served offline with its script. */
export const docsRoutes: EmulatorRoute[] = [
  {
    method: 'GET',
    path: '/docs',
    api: 'meta',
    operationId: 'getDocs',
    async handle() {
      return respond(DOCS_PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
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
