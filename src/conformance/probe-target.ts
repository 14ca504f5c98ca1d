/**
 * One request to the base URL before any check runs: an HTTP answer of any status means the
 * target is there; a connection that fails or an answer that never comes is told in one line,
 * so that an unreachable URL does not print every check failing the same way.
 */
export async function probeTarget(baseUrl: string, fetchFn: (request: Request) => Promise<Response>, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetchFn(new Request(baseUrl, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) }));
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    return connectionFailure(error, timeoutMs);
  }
}

/** `ECONNREFUSED 127.0.0.1:9`, `ENOTFOUND no.such.host`, or `no answer within 30000 ms`. */
export function connectionFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; errors?: { message?: string }[] } };
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause;
  const inner = cause?.errors?.[0]?.message ?? cause?.message;
  if (cause?.code && inner) return inner.includes(cause.code) ? inner.replace(/^(connect|getaddrinfo) /, '') : `${cause.code} ${inner}`;
  return inner ?? e?.message ?? String(error);
}
