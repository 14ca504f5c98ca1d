// The same app at run time: Anchor's Program reads an account the emulator loaded from the
// workspace's [test.validator] dump, over the RPC of a server on a free port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import anchor from '@coral-xyz/anchor';
import { Connection, PublicKey } from '@solana/web3.js';
import { startServer } from 'relay-emulator/node';

const workspace = process.argv[2];
const server = await startServer({ port: 0, emulator: { anchor: workspace, rpcAuth: false } });
try {
  const idl = JSON.parse(readFileSync(join(workspace, 'target/idl/puppet.json'), 'utf8'));
  const program = new anchor.Program(idl, { connection: new Connection(server.emulator.config.rpcUrl) });
  const data = await program.account.data.fetch(new PublicKey('2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR'));
  console.log(`puppet data ${data.data.toString()}`);
} finally {
  await server.close();
}
