import type { Api } from './router.ts';

/** The core, and anything that answers as it does: a request in, a response out. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What observers learn about each exchange (request logs, journals). */
export interface Exchange {
  request: Request;
  response: Response;
  /** The route's interface, or null when no route matched. */
  api: Api | 'rpc' | null;
  operationId: string | null;
  startedAt: Date;
  durationMs: number;
  /** The refusal's problem code and fee-payer rule when the request was refused (a thrown error), else null. */
  problem: { code: string; rule: string | null } | null;
}
