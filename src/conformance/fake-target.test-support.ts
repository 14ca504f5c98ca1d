/**
 * Small fake targets for the kit's unit tests: a fetch function from 'METHOD /path' handlers
 * (paths relative to the server root, so '/api/Transaction/config'); anything else is a 404
 * problem. Not used by the kit itself.
 */
import { Keypair } from '@solana/web3.js';

export const FAKE_BASE_URL = 'http://relay.test/api';
export const FAKE_API_KEY = 'good-key';
export const FAKE_FEE_PAYER = Keypair.generate().publicKey.toBase58();

export type Handler = (request: Request, url: URL) => Response | Promise<Response>;

export function json(body: unknown, status = 200, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': contentType } });
}

export function problem(status: number, code: string, detail = code): Response {
  const type = `urn:relay-emulator:problem:${code.toLowerCase().replaceAll('_', '-')}`;
  return json({ type, title: code, status, code, detail }, status, 'application/problem+json');
}

export function fakeFetch(routes: Record<string, Handler>): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const handler = routes[`${request.method} ${url.pathname}`];
    return handler ? handler(request, url) : problem(404, 'ROUTE_NOT_FOUND');
  };
}

/** A compact JWT with these claims (the signature is not a real one: the kit does not verify it). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part(claims)}.${Buffer.from('signature').toString('base64url')}`;
}

/** A correct configuration record, expiring in an hour. */
export function fakeConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return {
    RpcUrl: 'http://relay.test/rpc',
    FeePayer: FAKE_FEE_PAYER,
    Token: fakeJwt({ exp }),
    RpcEnvironment: 'devnet',
    TokenExpiration: new Date(exp * 1000).toISOString(),
    ...overrides,
  };
}

/** Answers like the service when the API key is right, 401 problems when it is missing or wrong. */
export function withApiKey(handler: Handler): Handler {
  return (request, url) => {
    const key = request.headers.get('x-api-key');
    if (key === null) return problem(401, 'API_KEY_MISSING');
    if (key !== FAKE_API_KEY) return problem(401, 'API_KEY_INVALID');
    return handler(request, url);
  };
}
