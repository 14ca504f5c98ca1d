import { decodeJwt } from 'jose';
import { apiKeyId } from '../../domain/auth/api-keys.ts';
import { bearerToken } from '../../domain/auth/authenticate.ts';
import { jsonResponse, jsonTextResponse, stringifyJson } from '../../base/http/json-response.ts';
import type { EmulatorRoute } from '../../core/create-fetch.ts';
import type { EmulatorServices } from '../../assembly/services.ts';
import type { IssuedToken } from '../../domain/auth/tokens.ts';
import { headerOf } from '../../base/http/request-header.ts';

const getConfig: EmulatorRoute = {
  method: 'GET',
  path: '/Transaction/config',
  api: 'current',
  operationId: 'getConfig',
  async handle({ request, requestContext, services }) {
    // The subject names the API key (by a digest, never the key): a Token renewed with a Token keeps it.
    const key = headerOf(request, requestContext, 'x-api-key');
    const bearer = key === null ? bearerToken(headerOf(request, requestContext, 'authorization')) : null;
    const subject = key !== null ? apiKeyId(key) : bearer !== null ? String(decodeJwt(bearer).sub ?? 'bearer') : 'bearer';
    const issued = await services.tokens.issue(subject);
    let text = renderedConfigs.get(issued);
    if (text === undefined) {
      text = stringifyJson({
        RpcUrl: services.config.rpcUrl,
        FeePayer: services.config.feePayer,
        Token: issued.token,
        RpcEnvironment: services.config.rpcEnvironment,
        TokenExpiration: issued.expiresAt.toISOString(),
        // The Android SDK's v0.1.2-alpha and v0.1.3-alpha read these two in camelCase.
        feePayer: services.config.feePayer,
        rpcUrl: services.config.rpcUrl,
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

async function blockhashRecord(services: EmulatorServices): Promise<Response> {
  const { blockhash, lastValidBlockHeight } = await services.ledger.latestBlockhash();
  return jsonResponse({ Blockhash: blockhash, LastValidBlockHeight: Number(lastValidBlockHeight) });
}

const getBlockhash: EmulatorRoute = {
  method: 'GET',
  path: '/Transaction/blockhash',
  api: 'current',
  operationId: 'getBlockhash',
  handle: ({ services }) => blockhashRecord(services),
};

/** The older altude-js client posts `{}` here; a body must be a JSON object and is otherwise ignored. */
const getBlockhashByPost: EmulatorRoute = {
  method: 'POST',
  path: '/Transaction/blockhash',
  api: 'current',
  operationId: 'getBlockhashByPost',
  async handle(context) {
    context.services.binder.body('getBlockhashByPost', (await context.body()) ?? {});
    return blockhashRecord(context.services);
  },
};

export const configRoutes: EmulatorRoute[] = [getConfig, getBlockhash, getBlockhashByPost];
