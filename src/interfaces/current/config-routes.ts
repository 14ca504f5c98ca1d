import type { Route } from '../../base/http/router.ts';
import { apiKeyId } from '../../domain/auth/api-keys.ts';
import { bearerToken, jwtClaims } from '../../domain/auth/bearer.ts';
import { jsonResponse, jsonTextResponse, stringifyJson } from '../../base/http/json-response.ts';
import type { CurrentDeps } from './current-deps.ts';
import type { IssuedToken } from '../../domain/auth/tokens.ts';
import { headerOf } from '../../base/http/request-header.ts';

const getConfig: Route<CurrentDeps> = {
  method: 'GET',
  path: '/Transaction/config',
  api: 'current',
  operationId: 'getConfig',
  async handle({ request, requestContext, deps }) {
    // The subject names the API key (by a digest, never the key): a Token renewed with a Token keeps it.
    const key = headerOf(request, requestContext, 'x-api-key');
    const bearer = key === null ? bearerToken(headerOf(request, requestContext, 'authorization')) : null;
    const subject = key !== null ? apiKeyId(key) : bearer !== null ? String(jwtClaims(bearer).sub ?? 'bearer') : 'bearer';
    const issued = await deps.tokens.issue(subject);
    let text = renderedConfigs.get(issued);
    if (text === undefined) {
      text = stringifyJson({
        RpcUrl: deps.config.rpcUrl,
        FeePayer: deps.config.feePayer,
        Token: issued.token,
        RpcEnvironment: deps.config.rpcEnvironment,
        TokenExpiration: issued.expiresAt.toISOString(),
        // The Android SDK's v0.1.2-alpha and v0.1.3-alpha read these two in camelCase.
        feePayer: deps.config.feePayer,
        rpcUrl: deps.config.rpcUrl,
      });
      renderedConfigs.set(issued, text);
    }
    return jsonTextResponse(text);
  },
};

/**
 * Config bodies by the token they carry. The issuer hands out the same token to a subject for the
 * rest of its second, and the rest of the body is the emulator's fixed configuration, so a body is
 * rendered once per token rather than once per request.
 */
const renderedConfigs = new WeakMap<IssuedToken, string>();

async function blockhashRecord(deps: CurrentDeps): Promise<Response> {
  const { blockhash, lastValidBlockHeight } = await deps.ledger.latestBlockhash();
  return jsonResponse({ Blockhash: blockhash, LastValidBlockHeight: Number(lastValidBlockHeight) });
}

const getBlockhash: Route<CurrentDeps> = {
  method: 'GET',
  path: '/Transaction/blockhash',
  api: 'current',
  operationId: 'getBlockhash',
  handle: ({ deps }) => blockhashRecord(deps),
};

/** The older altude-js client posts `{}` here; a body must be a JSON object and is otherwise ignored. */
const getBlockhashByPost: Route<CurrentDeps> = {
  method: 'POST',
  path: '/Transaction/blockhash',
  api: 'current',
  operationId: 'getBlockhashByPost',
  async handle(context) {
    context.deps.binder.body('getBlockhashByPost', (await context.body()) ?? {});
    return blockhashRecord(context.deps);
  },
};

export const configRoutes: Route<CurrentDeps>[] = [getConfig, getBlockhash, getBlockhashByPost];
