import { join } from 'node:path';
import { createRelayEmulator } from './src/index.ts';
import { loadAppGenesis, appGenesisAccounts } from './src/fixtures/app-genesis.ts';
import { genesisKey } from './src/ledger/litesvm-bank.ts';
const root = '/tmp/relay-emulator-judges/light-8b87a823d5d2310c/node_modules/@lightprotocol/zk-compression-cli';
const P = [['noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV','spl_noop.so'],['SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7','light_system_program_pinocchio.so'],['cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m','light_compressed_token.so'],['compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq','account_compression.so'],['Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX','light_registry.so']];
const options = { programs: P.map(([programId, f]) => ({ programId, path: join(root, 'bin', f) })), accountDirs: [join(root, 'accounts')] };
const origWarn = console.warn; process.stderr.write = (() => true) as any;
for (let i = 0; i < 3; i++) { const e = await createRelayEmulator(options); await e.close(); }
let t = performance.now();
for (let i = 0; i < 20; i++) await loadAppGenesis(options, new Map());
console.log('loadAppGenesis ms', (performance.now() - t) / 20);
const app = await loadAppGenesis(options, new Map());
t = performance.now();
for (let i = 0; i < 20; i++) appGenesisAccounts(app);
console.log('appGenesisAccounts ms', (performance.now() - t) / 20);
const acc = appGenesisAccounts(app);
const { addressOf } = await import('./src/crypto/key-cache.ts');
t = performance.now();
for (let i = 0; i < 20; i++) genesisKey(acc.map(({ address, account }) => ({ address: addressOf(address), ...account, owner: addressOf(account.owner) })));
console.log('genesisKey (app only) ms', (performance.now() - t) / 20);
for (const o of [{}, options]) { const xs = []; for (let i = 0; i < 15; i++) { const s = performance.now(); const e = await createRelayEmulator(o); xs.push(performance.now() - s); await e.close(); } xs.sort((a,b)=>a-b); console.log(o === options ? 'with' : 'without', xs[7]); }
