import { LOOPBACK_MOUNT } from '../../base/http/server-mount.ts';
import { withoutTrailingSlashes } from '../../base/http/request-url.ts';
import { room, type Room } from '../../core/room.ts';
import { rpcAnswer, rpcMiddleware } from './create-rpc-handler.ts';
import { RPC_METHODS } from './method-table.ts';
import { upgradeToPubSub } from './pubsub/pubsub-server.ts';
import type { RpcDeps } from './rpc-deps.ts';

/**
 * Solana's JSON-RPC at `rpcUrl`'s path, and at `POST /` as solana-test-validator serves it (gill's
 * `localnet`, `solana -u localhost`; `GET /` is the web UI, any other method there is 405), with
 * PubSub on the same paths' WebSocket upgrades. Its middleware: POST only, then the Token.
 */
export function rpcRoom(deps: RpcDeps): Room<RpcDeps> {
  const rpcPath = withoutTrailingSlashes(new URL(deps.config.rpcUrl).pathname);
  return room({
    name: 'rpc',
    deps,
    middleware: rpcMiddleware(deps),
    endpoint: {
      match(request, pathname) {
        if (pathname === '/') {
          const { method } = request;
          if (method === 'POST') return JSON_RPC;
          return method === 'GET' || method === 'HEAD' ? null : { allow: 'GET, POST' };
        }
        return withoutTrailingSlashes(pathname) === rpcPath ? JSON_RPC : null;
      },
      handle: rpcAnswer(deps.extraMethods ? { methods: { ...RPC_METHODS, ...deps.extraMethods } } : {}),
    },
    upgrade: {
      matches: (path) => path === '/' || path === rpcPath,
      handle: (request, socket, head, mount) => upgradeToPubSub(deps, request, socket, head, { mount: mount ?? LOOPBACK_MOUNT }),
    },
  });
}

const JSON_RPC = { operationId: 'jsonRpc' } as const;
