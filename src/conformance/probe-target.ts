import { connectionFailure } from '../base/http/connection-failure.ts';

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
