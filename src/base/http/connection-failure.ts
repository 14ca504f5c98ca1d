// Why a fetch found no server, in a line: what the command-line tools print when a URL does not answer.

/** `ECONNREFUSED 127.0.0.1:9`, `ENOTFOUND no.such.host`, or `no answer within 30000 ms`. */
export function connectionFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; errors?: { message?: string }[] } };
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause;
  const inner = cause?.errors?.[0]?.message ?? cause?.message;
  if (cause?.code && inner) return inner.includes(cause.code) ? inner.replace(/^(connect|getaddrinfo) /, '') : `${cause.code} ${inner}`;
  return inner ?? e?.message ?? String(error);
}
