/**
 * Limits of issue 8 through the real API over MSW: the body size (413), the per-API-key rate limit
 * (429 with Retry-After) and the bounded queue (503 QUEUE_FULL), each refusing before anything is
 * recorded or submitted, and nothing accepted ever dropped.
 */
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY_PROFILES } from '../src/domain/relay/policy-options.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, build, createAtaInstructions, FEE_PAYER, transferInstruction } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

const KEYS = { rate: 'limits-rate-key', neighbour: 'limits-neighbour-key', queue: 'limits-queue-key', body: 'limits-body-key' };
/** 20 requests at once, then one per 100 s: the refill never matters within a test. */
const RATE_LIMIT = { requestsPerSecond: 0.01, burst: 20 };
const MAX_PENDING = 2;

let h: Harness;

const lamportsOf = async (address: PublicKey) => (await h.emulator.services.ledger.getAccount(address))?.lamports ?? 0n;
const as = (key: string) => ({ 'X-API-Key': key });

async function validSend(key: string, amount = 1n): Promise<string> {
  const recipient = newKeypair();
  const { body } = await h.call('GET', '/Transaction/blockhash', { headers: as(key) });
  return build({
    instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, amount)],
    blockhash: body.Blockhash,
    signers: [ALICE, recipient],
  });
}

// The limits come before the fee-payer policy, so they hold under both profiles alike.
for (const profile of POLICY_PROFILES) {
  describe(`under the ${profile} policy profile`, () => {
    beforeAll(async () => {
      h = await startHarness({ apiKeys: Object.values(KEYS), rateLimit: RATE_LIMIT, queue: { mode: 'manual', maxPending: MAX_PENDING }, policy: profile });
    });
    afterAll(() => h.close());

    describe('body size: 413 PAYLOAD_TOO_LARGE', () => {
      const limit = () => h.emulator.config.maxBodyBytes;

      it('refuses a body over the limit declared by Content-Length, and records nothing', async () => {
        const before = h.emulator.services.submissions.all().length;
        const response = await h.call('POST', '/Transaction/send', { headers: as(KEYS.body), body: { signedTransaction: 'A'.repeat(limit()) } });
        expect(response.status).toBe(413);
        expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
        expect(h.emulator.services.submissions.all().length).toBe(before);
      });

      it('refuses a streamed body without Content-Length once it passes the limit', async () => {
        const chunk = new TextEncoder().encode(`{"signedTransaction":"${'A'.repeat(1024)}`);
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            // Far more than the limit if nobody stops reading: the cap must cut it short.
            if (sent > limit() * 8) controller.close();
            else controller.enqueue(chunk);
            sent += chunk.length;
          },
        });
        const response = await fetch(`${h.emulator.config.baseUrl}/Transaction/send`, {
          method: 'POST',
          headers: { ...as(KEYS.body), 'Content-Type': 'application/json' },
          body: stream,
          duplex: 'half',
        } as RequestInit);
        const body = (await assertFetchResponseMatchesSpec('POST', '/Transaction/send', response)) as { code: string };
        expect(response.status).toBe(413);
        expect(body.code).toBe('PAYLOAD_TOO_LARGE');
      });

      it('reads a body just under the limit (and answers for its content instead)', async () => {
        const filler = 'A'.repeat(limit() - '{"signedTransaction":""}'.length);
        const response = await h.call('POST', '/Transaction/send', { headers: as(KEYS.body), body: { signedTransaction: filler } });
        expect(response.status).toBe(422);
        expect(response.body.code).toBe('TRANSACTION_TOO_LARGE');
      });
    });

    describe('rate limit per API key: 429 RATE_LIMITED with Retry-After', () => {
      it('serves a burst, then refuses with Retry-After, per key, bearer Token included, submitting nothing', async () => {
        const signed = await validSend(KEYS.rate); // 1 request
        const config = await h.call('GET', '/Transaction/config', { headers: as(KEYS.rate) }); // 2
        const token = config.body.Token as string;
        for (let spent = 2; spent < RATE_LIMIT.burst; spent += 1) {
          expect((await h.call('GET', '/Transaction/blockhash', { headers: as(KEYS.rate) })).status).toBe(200);
        }

        const feePayerBefore = await lamportsOf(FEE_PAYER);
        const recordsBefore = h.emulator.services.submissions.all().length;
        const refused = await h.call('POST', '/Transaction/send', { headers: as(KEYS.rate), body: { signedTransaction: signed } });
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('RATE_LIMITED');
        // One token comes back every 1 / rate seconds; the burst above took some wall time, which
        // refilled a sliver, so the wait is at most that and (on any machine) well over 90 % of it.
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil(1 / RATE_LIMIT.requestsPerSecond));
        expect(retryAfter).toBeGreaterThan(0.9 / RATE_LIMIT.requestsPerSecond);
        expect(h.emulator.services.submissions.all().length).toBe(recordsBefore);
        expect(h.emulator.services.queue.state().pending).toBe(0);
        expect(await lamportsOf(FEE_PAYER)).toBe(feePayerBefore);

        // The Token issued to the key spends the same bucket; another key has its own.
        const bearer = await h.call('GET', '/Transaction/config', { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
        expect(bearer.status).toBe(429);
        expect((await h.call('GET', '/Transaction/config', { headers: as(KEYS.neighbour) })).status).toBe(200);
      });

      it('forgets every bucket on an emulator reset', async () => {
        expect((await h.call('GET', '/Transaction/config', { headers: as(KEYS.rate) })).status).toBe(429);
        await h.emulator.reset();
        expect((await h.call('GET', '/Transaction/config', { headers: as(KEYS.rate) })).status).toBe(200);
      });

      it('authenticates before it counts: a wrong or missing key is a 401, not a 429', async () => {
        expect((await h.call('GET', '/Transaction/config', { headers: as('no-such-key') })).body.code).toBe('API_KEY_INVALID');
        expect((await h.call('GET', '/Transaction/config', { anonymous: true })).body.code).toBe('API_KEY_MISSING');
      });
    });

    describe('bounded queue: 503 QUEUE_FULL, nothing silently dropped', () => {
      it('refuses past maxPending before recording anything, and every accepted transaction lands', async () => {
        const { submissions, queue } = h.emulator.services;
        const transactions = [await validSend(KEYS.queue, 1n), await validSend(KEYS.queue, 2n), await validSend(KEYS.queue, 3n)];
        const feePayerBefore = await lamportsOf(FEE_PAYER);
        const recordsBefore = submissions.all().length;

        const answers = [];
        for (const signedTransaction of transactions)
          answers.push(await h.call('POST', '/Transaction/send', { headers: as(KEYS.queue), body: { signedTransaction } }));
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 503]);
        expect(answers[2]!.body.code).toBe('QUEUE_FULL');
        expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(submissions.all().length).toBe(recordsBefore + MAX_PENDING);
        expect(queue.state().pending).toBe(MAX_PENDING);
        expect(await lamportsOf(FEE_PAYER)).toBe(feePayerBefore);

        await queue.flush();
        const retried = await h.call('POST', '/Transaction/send', { headers: as(KEYS.queue), body: { signedTransaction: transactions[2] } });
        expect(retried.status).toBe(200);
        await queue.flush();
        await h.emulator.settle();

        const receipts = [answers[0]!.body, answers[1]!.body, retried.body] as { signature: string }[];
        expect(receipts.map((receipt) => submissions.get(receipt.signature)?.status)).toEqual(['processed', 'processed', 'processed']);
        expect(submissions.all().length).toBe(recordsBefore + 3);
        expect(queue.state().pending).toBe(0);
      });
    });
  });
}
