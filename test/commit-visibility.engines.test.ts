/**
 * What a relayed transaction made shows through the API together with its record and its owner's
 * entry in the token-account index, never before them. Under CPU load the conformance kit saw a
 * created token account on the ledger, then asked Account/getaccountinfo about its owner (a wallet
 * with no SOL) and got 404: the engine already held the account, the index did not list it yet.
 * The engine here stops right after executing (gated-engine.test-support.ts), so the moment is
 * held open as long as the test needs; it runs on the project's engine.
 */
import { describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../src/index.ts';
import { engineFactory } from '../src/domain/ledger/engines.ts';
import { gatedAfterExecute } from '../src/domain/ledger/gated-engine.test-support.ts';
import { newKeypair } from './support/keys.ts';
import { ata, build, createAtaInstructions } from './support/transactions.ts';

/** Turns of the event loop the API gets to answer in process while the engine is held (it needs a few). */
const MAX_TURNS = 2_000;

describe('a relayed account creation', () => {
  it('shows the account, its owner’s token account and its record at once', async () => {
    const gated = gatedAfterExecute(engineFactory(undefined));
    const emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api', loopback: false, engine: gated.factory });
    try {
      const call = async (path: string, body?: unknown) => {
        const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };
        const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) };
        return emulator.fetch(new Request(`${emulator.config.baseUrl}${path}`, init));
      };
      const owner = newKeypair();
      const account = ata(owner.publicKey).toBase58();
      const { Blockhash } = (await (await call('/Transaction/blockhash')).json()) as { Blockhash: string };
      const receipt = await call('/Account/create', {
        signedTransaction: build({ instructions: createAtaInstructions(owner.publicKey), blockhash: Blockhash, signers: [owner] }),
      });
      expect(receipt.status).toBe(200);
      const { signature } = (await receipt.json()) as { signature: string };
      const seen = async () => ({
        account: (await call('/Account/getaccountinfo', { accountAddress: account })).status,
        owner: (await call('/Account/getaccountinfo', { accountAddress: owner.publicKey.toBase58() })).status,
        record: emulator.services.submissions.get(signature)?.status,
      });

      await gated.readingBack;
      // Executed by the engine, not recorded: the API answers as before the transaction, at once.
      let during: Awaited<ReturnType<typeof seen>> | undefined;
      const reading = seen().then((value) => (during = value));
      for (let turn = 0; during === undefined && turn < MAX_TURNS; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      const answeredWhileHeld = during !== undefined;
      gated.open();
      await reading;
      await emulator.settle();

      expect(during).toEqual({ account: 404, owner: 404, record: 'queued' });
      expect(answeredWhileHeld).toBe(true);
      expect(await seen()).toEqual({ account: 200, owner: 200, record: 'processed' });
    } finally {
      gated.open();
      await emulator.close();
    }
  });
});
