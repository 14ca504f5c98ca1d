import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEd25519Signer } from '../src/base/crypto/ed25519.ts';
import { keypairOf, loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { newKeypair } from './support/keys.ts';

const fixtures = loadFixtures();

describe('GET /Transaction/config and authentication', () => {
  let clock = new Date('2026-11-21T12:00:00Z');
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ now: () => clock, tokenTtlSeconds: 600 });
  });
  afterAll(() => h.close());

  it('answers the configuration record with a real signed JWT whose exp is TokenExpiration', async () => {
    const { status, body } = await h.call('GET', '/Transaction/config');
    expect(status).toBe(200);
    // The loopback listener's port, so that clients which go around MSW reach the same core.
    expect(body.RpcUrl).toBe(`${h.emulator.loopbackOrigin}/rpc`);
    expect(body.RpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    expect(body.FeePayer).toBe(fixtures.relay.feePayer.publicKey);
    expect(body.RpcEnvironment).toBe('devnet');
    expect(body.TokenExpiration).toBe('2026-11-21T12:10:00.000Z');

    expect(decodeProtectedHeader(body.Token)).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });
    const publicKey = createPublicKey(createEd25519Signer(keypairOf(fixtures.relay.tokenSigner).secretKey).keyObject);
    const { payload } = await jwtVerify(body.Token, publicKey, { currentDate: clock });
    expect(payload.exp! * 1000).toBe(Date.parse(body.TokenExpiration));
    expect(payload.iat).toBe(Date.parse('2026-11-21T12:00:00Z') / 1000);
    expect(payload).toMatchObject({ iss: 'relay-emulator', aud: 'https://relay.example.test/api' });
    expect(payload.sub).not.toContain(h.emulator.config.apiKey);
  });

  it('answers the same body within a second, and a body with the new token and expiry a second later', async () => {
    const first = await h.call('GET', '/Transaction/config');
    const again = await h.call('GET', '/Transaction/config');
    expect(again.body).toEqual(first.body);
    clock = new Date(clock.getTime() + 1_000);
    try {
      const later = await h.call('GET', '/Transaction/config');
      expect(later.body.Token).not.toBe(first.body.Token);
      expect(later.body.TokenExpiration).toBe('2026-11-21T12:10:01.000Z');
      expect(decodeJwt(later.body.Token).exp! * 1000).toBe(Date.parse(later.body.TokenExpiration));
    } finally {
      clock = new Date('2026-11-21T12:00:00Z');
    }
  });

  it('requires X-API-Key: missing is 401 API_KEY_MISSING, unknown is 401 API_KEY_INVALID', async () => {
    const missing = await h.call('GET', '/Transaction/config', { anonymous: true });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'API_KEY_MISSING', status: 401 });
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const unknown = await h.call('POST', '/Account/balance', {
      anonymous: true,
      headers: { 'X-API-Key': 'not-a-key' },
      body: { accountAddress: fixtures.relay.feePayer.publicKey },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('API_KEY_INVALID');
  });

  it('accepts Authorization: Bearer <Token> in place of the key, until the token expires', async () => {
    const { body: config } = await h.call('GET', '/Transaction/config');
    const bearer = { Authorization: `Bearer ${config.Token}` };
    const ok = await h.call('GET', '/Transaction/blockhash', { anonymous: true, headers: bearer });
    expect(ok.status).toBe(200);
    expect(ok.body.Blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    clock = new Date(clock.getTime() + 601_000);
    const expired = await h.call('GET', '/Transaction/blockhash', { anonymous: true, headers: bearer });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('TOKEN_EXPIRED');
    clock = new Date('2026-11-21T12:00:00Z');
  });

  it('keeps the subject of the key when a Token is renewed with a Token', async () => {
    const { body: first } = await h.call('GET', '/Transaction/config');
    const { body: renewed } = await h.call('GET', '/Transaction/config', { anonymous: true, headers: { Authorization: `Bearer ${first.Token}` } });
    expect(decodeJwt(renewed.Token).sub).toBe(decodeJwt(first.Token).sub);
    expect(decodeJwt(renewed.Token).sub).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a forged token (signed by another key) as TOKEN_INVALID, and garbage too', async () => {
    const forger = createPrivateKey({
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), newKeypair().secretKey.subarray(0, 32)]),
      format: 'der',
      type: 'pkcs8',
    });
    const { body: config } = await h.call('GET', '/Transaction/config');
    const claims = decodeJwt(config.Token);
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).sign(forger);
    for (const token of [forged, 'not.a.jwt', `${config.Token}x`]) {
      const response = await h.call('GET', '/Transaction/blockhash', { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('TOKEN_INVALID');
    }
  });

  it('accepts every configured key, compared exactly', async () => {
    const multi = await startHarness({ apiKeys: ['first-key', 'second-key'] });
    try {
      for (const key of ['first-key', 'second-key']) {
        expect((await multi.call('GET', '/Transaction/blockhash', { anonymous: true, headers: { 'X-API-Key': key } })).status).toBe(200);
      }
      expect((await multi.call('GET', '/Transaction/blockhash', { anonymous: true, headers: { 'X-API-Key': 'first-keyx' } })).status).toBe(401);
    } finally {
      await multi.close();
    }
  });

  it('reports a configurable RpcEnvironment and RpcUrl', async () => {
    const custom = await startHarness({ rpcEnvironment: 'mainnet-beta', rpcUrl: 'https://rpc.example.test/' });
    try {
      const { body } = await custom.call('GET', '/Transaction/config');
      expect(body).toMatchObject({ RpcEnvironment: 'mainnet-beta', RpcUrl: 'https://rpc.example.test/' });
    } finally {
      await custom.close();
    }
  });
});
