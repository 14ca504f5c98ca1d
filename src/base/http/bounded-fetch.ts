import { readCapped } from './read-capped.ts';

/** Why a bounded fetch gave up, in words that follow the URL: "answered 307 (a redirect to …)", "sent more than N bytes". */
export class FetchProblem extends Error {
  override readonly name = 'FetchProblem';
  constructor(
    message: string,
    /** Worth another try: a timeout or a refused connection (never a redirect, nor an answer too large). */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface BoundedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A request to a URL the user gave, read as decision 0010 reads the network: never redirected (a
 * 3xx is refused, naming where it pointed: a cluster answering 307 to an emulator's
 * /__emulator/reset once made `clone` POST there), bounded in time (the answer's body included) and
 * in size (counted as it is decoded: a gzip answer of 1.5 MB once inflated to 3 GB). Throws
 * {@link FetchProblem}, one line.
 */
export async function fetchBounded(url: string, init: RequestInit, { maxBytes, timeoutMs }: { maxBytes: number; timeoutMs: number }): Promise<BoundedAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal });
  } catch (error) {
    throw new FetchProblem(fetchFailure(error, timeoutMs), true);
  }
  if (response.status >= 300 && response.status < 400) {
    void response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    throw new FetchProblem(
      `it answered ${response.status}${location ? ` (a redirect to ${location.slice(0, 200)})` : ''}; relay-emulator follows no redirect`,
      false,
    );
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(response.body, maxBytes);
  } catch (error) {
    throw new FetchProblem(fetchFailure(error, timeoutMs), true);
  }
  if (bytes === null) throw new FetchProblem(`its answer is larger than ${maxBytes} bytes; relay-emulator reads no more`, false);
  return { status: response.status, headers: response.headers, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}

function fetchFailure(error: unknown, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer in ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
