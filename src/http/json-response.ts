/** A JSON response. bigint values are written as JSON numbers (Solana amounts fit or are strings already). */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
  return new Response(text, {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}
