import { createHmac } from 'node:crypto';
import { fail, show } from './check.ts';
import type { TargetClient, TargetResponse } from './target-client.ts';
import type { KoraTarget } from './types.ts';

/** A Kora call's answer: the HTTP response and, for a JSON-RPC answer, its result or error. */
export interface KoraAnswer {
  response: TargetResponse;
  result?: unknown;
  error?: { code: unknown; message: unknown };
}

/**
 * One call of Kora's JSON-RPC as the @solana/kora SDK makes it (KoraClient.rpcRequest: `{id: 1,
 * jsonrpc, method, params}`, with `x-api-key` and the HMAC of timestamp + body when the target has
 * credentials), held to the contract's `/kora`. `credentials` false sends none; an object sends those.
 */
export async function koraCall(
  client: TargetClient,
  target: KoraTarget,
  method: string,
  params?: unknown,
  credentials: boolean | Pick<KoraTarget, 'apiKey' | 'hmacSecret'> = true,
): Promise<KoraAnswer> {
  const json = { id: 1, jsonrpc: '2.0', method, params };
  const keys = credentials === true ? target : credentials === false ? {} : credentials;
  const headers: Record<string, string> = {};
  if (keys.apiKey) headers['x-api-key'] = keys.apiKey;
  if (keys.hmacSecret) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    headers['x-timestamp'] = timestamp;
    headers['x-hmac-signature'] = createHmac('sha256', keys.hmacSecret)
      .update(timestamp + JSON.stringify(json))
      .digest('hex');
  }
  const response = await client.request({ method: 'POST', path: target.url, on: 'absolute', specPath: '/kora', auth: 'none', headers, json });
  const body = response.json as { result?: unknown; error?: { code: unknown; message: unknown } } | undefined;
  return { response, ...(body && 'result' in body ? { result: body.result } : {}), ...(body?.error ? { error: body.error } : {}) };
}

/** The call's result; fails the check on an error, a status other than 200, or a contract violation. */
export async function koraResult(client: TargetClient, target: KoraTarget, method: string, params?: unknown): Promise<Record<string, unknown>> {
  const answer = await koraCall(client, target, method, params);
  if (answer.response.status !== 200) fail(`${method}: HTTP ${answer.response.status} ${show(answer.response.text)}`);
  if (answer.error) fail(`${method}: ${show(answer.error)}`);
  if (answer.response.contractError) fail(`${method}: the answer differs from openapi/relay.yaml: ${answer.response.contractError.split('\n')[0]}`);
  if (typeof answer.result !== 'object' || answer.result === null) fail(`${method}: the result is not an object: ${show(answer.result)}`);
  return answer.result as Record<string, unknown>;
}
