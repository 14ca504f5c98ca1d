/**
 * gill's `createSolanaClient({ urlOrMoniker: 'localnet' })`, unmodified, against `relay-emulator start
 * --port 8899`: gill's localnet is http://127.0.0.1:8899 for JSON-RPC (POST /) and ws://127.0.0.1:8900
 * for PubSub, as solana-test-validator pairs them. The emulator serves both with no Token on a
 * loopback bind. Its sendAndConfirmTransaction lands a transfer, on each engine in turn (this file
 * names its engines, so it runs once).
 */
import { address, createSolanaClient, createTransaction, generateKeyPairSigner, lamports, airdropFactory } from 'gill';
import { getTransferSolInstruction } from 'gill/programs';
import { describe, expect, it } from 'vitest';
import { withDefaultPorts } from '../support/default-ports-lock.ts';
import { spawnEmulator, untilHealthy } from '../support/emulator-process.ts';

describe('gill localnet against relay-emulator start --port 8899', () => {
  for (const engine of ['litesvm', 'bankrun'] as const) {
    it(`sends and confirms a transfer on ${engine}, with nothing configured but the moniker`, () =>
      withDefaultPorts(async () => {
        const emulator = spawnEmulator({ port: 8899, args: ['--engine', engine, '--log-level', 'warn'] });
        try {
          await untilHealthy(emulator.origin);
          const { rpc, rpcSubscriptions, sendAndConfirmTransaction } = createSolanaClient({ urlOrMoniker: 'localnet' });
          const payer = await generateKeyPairSigner();
          const recipient = await generateKeyPairSigner();
          await airdropFactory({ rpc, rpcSubscriptions } as never)({
            recipientAddress: payer.address,
            lamports: lamports(2_000_000_000n),
            commitment: 'confirmed',
          });
          const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
          const transaction = createTransaction({
            version: 'legacy',
            feePayer: payer,
            instructions: [getTransferSolInstruction({ source: payer, destination: address(recipient.address), amount: 1_000_000_000n })],
            latestBlockhash,
          });
          const signature = await sendAndConfirmTransaction(transaction);
          expect(typeof signature).toBe('string');
          expect((await rpc.getBalance(recipient.address).send()).value).toBe(1_000_000_000n);
          expect((await rpc.getSignatureStatuses([signature]).send()).value[0]).toMatchObject({ err: null });
        } catch (error) {
          if (/EADDRINUSE/.test(emulator.output())) throw new Error(`port 8899 or 8900 is in use on this machine: ${emulator.output()}`);
          throw error;
        } finally {
          expect(await emulator.stop('SIGTERM')).toBe(0);
        }
      }));
  }
});
