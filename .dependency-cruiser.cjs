/**
 * The structure's rules, checked in CI (`npm run lint`). `src/` is in layers; a module imports its
 * own layer and the layers below, never one above, and nothing imports itself round a circle.
 *
 *   1  generated, version, assets, crypto,  plain values, where the package's files are, codecs,
 *      errors                                the problem registry
 *   2  domain                                the words the relay, stores and views share
 *   3  http, state (its base)                request plumbing; the state registry, the change feed, the
 *                                           snapshot's type, its codec and its seal
 *   4  ledger                                the ledger behind LedgerEngine
 *   5  fixtures                              the fixture files, read into accounts
 *   6  store, queries                        submissions, history, token-account index; reads over them and the ledger
 *   7  relay, auth, limits, openapi          the accept pipeline and queue; keys and tokens; the contract's binder
 *   8  rpc                                   Solana JSON-RPC and PubSub
 *   9  legacy, kora                          the legacy interface's domain; Kora's JSON-RPC
 *  10  services, options                     the emulator's parts as route handlers see them (types), its options
 *  11  core, state/core-parts, state/snapshots  the one fetch core; the core parts' state, and reset,
 *                                           snapshot and restore over every part
 *  12  controls, listen                      the test controls; the node listeners that serve a core
 *  13  inspector                             what the web UI reads
 *  14  api                                   every HTTP route
 *  15  msw, emulator                         the wiring and the MSW mount
 *  16  server                                the node server and the state file
 *  17  cli, conformance, index               the command line, the kit, the package's entry
 *
 * Type-only imports of `services` (the parts bag, layer 10) from layers 8 and below are the one
 * exception to "never up": route helpers there take `Pick<EmulatorServices, …>`. Runtime imports
 * never run up.
 */
/** The base of src/domain/state/: everything in it but the parts that run the emulator's services (layer 11). */
const STATE_BASE = 'domain/state/(?!core-parts|snapshots)[^/]+';
/** The legacy interface's domain (layer 9) and its routes (layer 14). */
const LEGACY_BASE = 'interfaces/legacy/(?!routes/)[^/]+';
const CONTROLS_BASE = 'interfaces/controls/(?!routes/)[^/]+';
const UI_ROUTES = 'interfaces/ui/(?!inspector/)[^/]+';

const LAYERS = [
  ['generated', 'base/version', 'base/assets', 'base/crypto', 'base/errors'],
  ['base/words'],
  ['base/http', STATE_BASE],
  ['domain/ledger'],
  ['domain/fixtures'],
  ['domain/store'],
  ['domain/relay', 'domain/auth', 'domain/limits', 'domain/openapi'],
  ['interfaces/rpc'],
  [LEGACY_BASE, 'interfaces/kora'],
  ['assembly/services', 'assembly/options'],
  ['core', 'domain/state/core-parts', 'domain/state/snapshots'],
  [CONTROLS_BASE, 'adapters/listen'],
  ['interfaces/ui/inspector'],
  ['interfaces/current', 'interfaces/legacy/routes', 'interfaces/controls/routes', UI_ROUTES, 'interfaces/meta'],
  ['adapters/msw', 'assembly/emulator'],
  ['adapters/server'],
  ['adapters/cli', 'conformance', 'index'],
];

/** `src/<name>/…` or `src/<name>.ts`. */
const pathOf = (names) => `^src/(${names.join('|')})(/|\\.ts$)`;

const upward = LAYERS.slice(0, -1).map((layer, at) => ({
  name: `layer-${at + 1}-imports-up`,
  severity: 'error',
  comment: `${layer.join(', ')} (layer ${at + 1}) must not import a layer above it.`,
  from: { path: pathOf(layer), pathNot: '\\.test\\.ts$|test-support' },
  to: { path: pathOf(LAYERS.slice(at + 1).flat()), dependencyTypesNot: ['type-only'] },
}));

const typesUp = LAYERS.slice(0, 9).map((layer, at) => ({
  name: `layer-${at + 1}-types-up`,
  severity: 'error',
  comment: `${layer.join(', ')} (layer ${at + 1}) imports types from above only from services.`,
  from: { path: pathOf(layer), pathNot: '\\.test\\.ts$|test-support' },
  to: { path: pathOf(LAYERS.slice(at + 1).flat()), pathNot: pathOf(['assembly/services']), dependencyTypes: ['type-only'] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A module must not reach itself through its imports (types included).', from: {}, to: { circular: true } },
    ...upward,
    ...typesUp,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
};
