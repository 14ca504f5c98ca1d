/**
 * A Solana JSON-RPC call over real HTTP: its result (typed by the caller, `any` by default, as each
 * method answers), or an Error with the RPC's message (and `data`).
 */
export type Rpc = <T = any>(method: string, params?: unknown[]) => Promise<T>;

export function rpcAt(url: string): Rpc {
  return async (method, params = []) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw Object.assign(new Error(`${method}: ${body.error.message}`), { code: body.error.code, data: body.error.data });
    return body.result as never;
  };
}
