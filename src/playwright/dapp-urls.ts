import type { RelayEmulator } from '../index.ts';

/** What `window.__RELAY_EMULATOR__` tells the dapp: the relay (current interface), its API key, the RPC, Kora, PubSub and the fee payer. */
export interface DappUrls {
  relayUrl: string;
  apiKey: string;
  rpcUrl: string;
  koraUrl: string;
  pubsubUrl: string | null;
  feePayer: string;
}

/** The init script: `window.__RELAY_EMULATOR__` in a top frame of an allowed origin (any, when none is named yet). */
export function dappUrlsScript(urls: DappUrls, origins: string[] | null): string {
  const allowed = origins === null ? null : origins.map((origin) => new URL(origin).origin);
  return `(() => {
  const allowed = ${JSON.stringify(allowed)};
  if (window === window.top && (allowed === null || allowed.includes(location.origin))) globalThis.__RELAY_EMULATOR__ = Object.freeze(${JSON.stringify(urls)});
})();`;
}

export function dappUrls({ config }: RelayEmulator): DappUrls {
  return {
    relayUrl: config.baseUrl,
    apiKey: config.apiKey,
    rpcUrl: config.rpcUrl,
    koraUrl: config.koraUrl,
    pubsubUrl: config.pubsubUrl,
    feePayer: config.feePayer,
  };
}
