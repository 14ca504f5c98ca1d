import { jsonResponse } from '../http/json-response.ts';
import { respond } from '../http/respond.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EmulatorRoute } from '../core/create-fetch.ts';
import { openApiText } from '../openapi/document.ts';

const require = createRequire(import.meta.url);

/** The emulator's version, from package.json. */
export const EMULATOR_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

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

/** /health, /openapi.yaml and /docs at the server root: no authentication, no admin token. */
export const metaRoutes: EmulatorRoute[] = [
  {
    method: 'GET',
    path: '/health',
    api: 'meta',
    operationId: 'health',
    async handle({ services }) {
      return jsonResponse({ status: 'ok', slot: Number(services.ledger.clock().slot), version: EMULATOR_VERSION, engine: services.config.engine });
    },
  },
  {
    method: 'GET',
    path: '/openapi.yaml',
    api: 'meta',
    operationId: 'getOpenApi',
    async handle() {
      return respond(openApiText(), { headers: { 'Content-Type': 'text/yaml; charset=utf-8' } });
    },
  },
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
