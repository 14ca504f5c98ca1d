/**
 * The structure's rules, checked in CI (`npm run lint`). `src/` is five homes and the assembly,
 * in layers; a module imports its own layer and the layers below, never one above (types
 * included), and nothing imports itself round a circle.
 *
 *   base        plain values and plumbing: version, assets, keys and codecs, the error registry, the
 *               typed emitter, the shared words, request plumbing (router, bodies, request context)
 *   domain      what the relay is: the state registry and change feed, the ledger, fixtures, stores,
 *               the relay, keys and tokens, limits, the contract's binder, the config, the events,
 *               snapshots over every part
 *   core        the one fetch core: matches a request to an interface and composes middleware; CORS,
 *               exchange observing and durability as middleware. It imports no interface.
 *   interfaces  one folder each, with its routes, middleware and deps: the RPC (with PubSub) lowest,
 *               since the others render its encodings; then legacy, Kora, current and meta; the
 *               controls; the web UI, which reads the controls' journals and the legacy records
 *   adapters    listen and msw (which mount a core), the node server and the command line
 *   assembly    builds every part and mounts the interfaces (between the mounts it uses and the
 *               server that uses it)
 *
 *   1  generated, base/version, base/assets, base/disk, base/codecs, base/crypto, base/errors, base/events,
 *      base/lazy-zod
 *   2  base/words
 *   3  base/http, domain/state
 *   4  domain/ledger
 *   5  domain/fixtures
 *   6  domain/store
 *   7  domain/relay, domain/auth, domain/limits, domain/openapi, domain/config, domain/events, domain/snapshots
 *   8  core
 *   9  interfaces/rpc
 *  10  interfaces/legacy, interfaces/kora, interfaces/current, interfaces/meta
 *  11  interfaces/controls, adapters/listen, adapters/msw
 *  12  interfaces/ui
 *  13  assembly
 *  14  adapters/server, wallet
 *  15  adapters/cli, conformance, vitest, playwright, schemas, index
 */
const LAYERS = [
  ['generated', 'base/version', 'base/assets', 'base/disk', 'base/codecs', 'base/crypto', 'base/errors', 'base/events', 'base/lazy-zod'],
  ['base/words'],
  ['base/http', 'domain/state'],
  ['domain/ledger'],
  ['domain/fixtures'],
  ['domain/store'],
  ['domain/relay', 'domain/auth', 'domain/limits', 'domain/openapi', 'domain/config', 'domain/events', 'domain/snapshots'],
  ['core'],
  ['interfaces/rpc'],
  ['interfaces/legacy', 'interfaces/kora', 'interfaces/current', 'interfaces/meta'],
  ['interfaces/controls', 'adapters/listen', 'adapters/msw'],
  ['interfaces/ui'],
  ['assembly'],
  ['adapters/server', 'wallet'],
  ['adapters/cli', 'conformance', 'vitest', 'playwright', 'schemas', 'index'],
];

/** `src/<name>/…` or `src/<name>.ts`. */
const pathOf = (names) => `^src/(${names.join('|')})(/|\\.ts$)`;

const upward = LAYERS.slice(0, -1).map((layer, at) => ({
  name: `layer-${at + 1}-imports-up`,
  severity: 'error',
  comment: `${layer.join(', ')} (layer ${at + 1}) must not import a layer above it, types included.`,
  from: { path: pathOf(layer), pathNot: '\\.test\\.ts$|test-support' },
  to: { path: pathOf(LAYERS.slice(at + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A module must not reach itself through its imports (types included).', from: {}, to: { circular: true } },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
};
