import { join } from 'node:path';
import { createRelayEmulator } from './src/index.ts';
const root = '/tmp/relay-emulator-judges/light-8b87a823d5d2310c/node_modules/@lightprotocol/zk-compression-cli';
const P = [['noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV','spl_noop.so'],['SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7','light_system_program_pinocchio.so'],['cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m','light_compressed_token.so'],['compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq','account_compression.so'],['Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX','light_registry.so']];
const options = { programs: P.map(([programId, f]) => ({ programId, path: join(root, 'bin', f) })), accountDirs: [join(root, 'accounts')] };
process.stderr.write = (() => true) as any;
const o = process.env.WITH ? options : {};
for (let i = 0; i < 5; i++) { const e = await createRelayEmulator(o); await e.close(); }
for (let i = 0; i < 200; i++) { const e = await createRelayEmulator(o); await e.close(); }
