import { problemOf } from '../base/http/error-response.ts';
import { pathnameOf } from '../base/http/request-url.ts';
import { respond } from '../base/http/respond.ts';
import { failure } from './create-fetch.ts';
import type { Middleware } from './room.ts';

/** What makes state changes durable (the state file's journal); without one nothing is ever pending. */
export interface Durability {
  readonly pending: boolean;
  durable(): Promise<void>;
}

/**
 * Nothing is answered before the state changes made so far are durable (group commit: an
 * acknowledged relay is never lost). A write that fails is a 500 in the answering interface's style.
 */
export function durably(changes: Durability): Middleware {
  return (call, next) =>
    next().then(async (response) => {
      if (!changes.pending) return response;
      try {
        await changes.durable();
        return response;
      } catch (error) {
        call.vars.problem = problemOf(error);
        const failed = failure(error, call.vars.api, pathnameOf(call.request.url));
        return call.request.method === 'HEAD' ? respond(null, { status: failed.status, headers: failed.headers }) : failed;
      }
    });
}
