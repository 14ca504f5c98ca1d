/**
 * The dapp's relay: where it is, and the two calls it makes. In production the URLs come from the
 * build's env (VITE_RELAY_URL, VITE_RELAY_API_KEY, VITE_RPC_URL); under relay-emulator/playwright the
 * fixture names the worker's emulator in `window.__RELAY_EMULATOR__` before the page's scripts run.
 */
const injected = globalThis.__RELAY_EMULATOR__;

export const RELAY = {
  url: injected?.relayUrl ?? import.meta.env.VITE_RELAY_URL,
  apiKey: injected?.apiKey ?? import.meta.env.VITE_RELAY_API_KEY,
  rpcUrl: injected?.rpcUrl ?? import.meta.env.VITE_RPC_URL,
};

const headers = () => ({ 'X-API-Key': RELAY.apiKey, 'content-type': 'application/json' });

/** The relay's fee payer, RPC and a bearer token for it, and a blockhash to build with. */
export async function relayConfig() {
  const config = await (await fetch(`${RELAY.url}/Transaction/config`, { headers: headers() })).json();
  const { Blockhash } = await (await fetch(`${RELAY.url}/Transaction/blockhash`, { headers: headers() })).json();
  return { feePayer: config.FeePayer, rpcUrl: config.RpcUrl ?? RELAY.rpcUrl, token: config.Token, blockhash: Blockhash };
}

/** Posts the user-signed transaction; the relay co-signs as fee payer and queues it. */
export async function relaySend(signed) {
  let text = '';
  for (const byte of signed) text += String.fromCharCode(byte);
  const response = await fetch(`${RELAY.url}/Transaction/send`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ signedTransaction: btoa(text) }),
  });
  return { ok: response.ok, status: response.status, receipt: await response.json() };
}

/** Waits until the RPC reports the signature: null when it landed, else the transaction's error. */
export async function landed(signature, { rpcUrl, token }) {
  for (let tries = 0; tries < 100; tries += 1) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSignatureStatuses', params: [[signature]] });
    const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` }, body });
    const status = (await response.json()).result?.value[0];
    if (status) return { err: status.err };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { err: 'not landed' };
}
