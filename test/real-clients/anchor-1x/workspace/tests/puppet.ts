// The puppet pair's suite in the shape `anchor init --test-template mocha` (Anchor 1.x) writes one:
// @anchor-lang/core, AnchorProvider.env(), anchor.workspace with the IDL's generated types,
// program.methods…rpc(), account.fetch, an AnchorError by name, onLogs. `anchor test` runs it with
// ANCHOR_PROVIDER_URL and ANCHOR_WALLET; the emulator behind that URL also serves the relay API,
// used by the last test.
import * as anchor from '@anchor-lang/core';
import type { Program } from '@anchor-lang/core';
import { assert } from 'chai';
import type { Puppet } from '../target/types/puppet';
import type { PuppetMaster } from '../target/types/puppet_master';

describe('puppet and puppet_master', () => {
  // Configure the client to use the local cluster.
  const provider = anchor.AnchorProvider.env();
  anchor.setProvider(provider);

  const puppet = anchor.workspace.puppet as Program<Puppet>;
  const puppetMaster = anchor.workspace.puppetMaster as Program<PuppetMaster>;
  const { Keypair, PublicKey, Transaction } = anchor.web3;

  it('initializes a puppet and sets its data through puppet_master’s CPI', async () => {
    const account = Keypair.generate();
    await puppet.methods.initialize().accounts({ puppet: account.publicKey, user: provider.wallet.publicKey }).signers([account]).rpc();
    await puppetMaster.methods.pullStrings(new anchor.BN(42)).accounts({ puppet: account.publicKey }).rpc();
    const data = await puppet.account.data.fetch(account.publicKey);
    assert.equal(data.data.toNumber(), 42);
  });

  it('names Anchor’s own error when the account was never initialized', async () => {
    const nobody = Keypair.generate().publicKey;
    try {
      await puppet.methods.setData(new anchor.BN(1)).accounts({ puppet: nobody }).rpc();
      assert.fail('setData on an account never initialized succeeded');
    } catch (error) {
      assert.instanceOf(error, anchor.AnchorError);
      assert.equal((error as anchor.AnchorError).error.errorCode.code, 'AccountNotInitialized');
    }
  });

  it('hears the program’s logs through onLogs', async () => {
    const account = Keypair.generate();
    await puppet.methods.initialize().accounts({ puppet: account.publicKey, user: provider.wallet.publicKey }).signers([account]).rpc();
    const heard = new Promise<string>((resolve) => {
      const id = provider.connection.onLogs(puppet.programId, (logs) => {
        if (logs.logs.some((line) => line.includes('Instruction: SetData'))) {
          void provider.connection.removeOnLogsListener(id);
          resolve(logs.signature);
        }
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signature = await puppet.methods.setData(new anchor.BN(5)).accounts({ puppet: account.publicKey }).rpc();
    assert.equal(await heard, signature);
  });

  it('reads the account Anchor.toml loads at genesis', async () => {
    const data = await puppet.account.data.fetch(new PublicKey('2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR'));
    assert.equal(data.data.toNumber(), 7);
  });

  it('relays a call to the app’s own program through the relay API on the same port', async () => {
    const base = `${new URL(process.env.ANCHOR_PROVIDER_URL!).origin}/api`;
    const headers = { 'X-API-Key': 'relay-emulator-dev-key', 'Content-Type': 'application/json' };
    const config = (await (await fetch(`${base}/Transaction/config`, { headers })).json()) as { FeePayer?: string; feePayer?: string };
    const account = Keypair.generate();
    await puppet.methods.initialize().accounts({ puppet: account.publicKey, user: provider.wallet.publicKey }).signers([account]).rpc();
    const { blockhash } = await provider.connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: new PublicKey((config.FeePayer ?? config.feePayer)!), recentBlockhash: blockhash });
    tx.add(await puppet.methods.setData(new anchor.BN(9)).accounts({ puppet: account.publicKey }).instruction());
    const serialized = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    const sent = await fetch(`${base}/Transaction/send`, { method: 'POST', headers, body: JSON.stringify({ transaction: serialized }) });
    const receipt = (await sent.json()) as { status?: string; Status?: string };
    assert.equal(receipt.status ?? receipt.Status, 'Queued', JSON.stringify(receipt));
    for (let tries = 0; tries < 50; tries += 1) {
      const data = await puppet.account.data.fetch(account.publicKey);
      if (data.data.toNumber() === 9) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail('the relayed setData never landed');
  });
});
