import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a sponsored transaction is charged to in the sponsor-cost report (issue 44): the test that
 * sent it. Each accepted submission keeps the label current when it was accepted:
 * 1. the request's `X-Relay-Emulator-Test` header (a client that is not in process names its test);
 * 2. else the vitest test running in this process (`relay-emulator/vitest`'s setup sets it);
 * 3. else the request's app: `app <X-API-Key>` on the current interface, else its interface
 *    (`legacy`, `kora`, `rpc`); null for what no request carried (a control's own transaction).
 */
export const COST_LABEL_HEADER = 'x-relay-emulator-test';

/** What a request says of itself: its header's test name, and the app it came from. */
export interface RequestCostLabel {
  test: string | null;
  app: () => string;
}

const requests = new AsyncLocalStorage<RequestCostLabel>();

/** Where `relay-emulator/vitest`'s setup file keeps the running test's label: one per process, whichever copy of the package loaded it. */
export const CURRENT_TEST = Symbol.for('relay-emulator.current-test');

/** Runs `next` as part of a request that says `label` of itself. */
export function withCostLabel<T>(label: RequestCostLabel, next: () => T): T {
  return requests.run(label, next);
}

/** The label of what is accepted now (see above), or null. */
export function currentCostLabel(): string | null {
  const request = requests.getStore();
  if (request?.test) return request.test;
  const test = (globalThis as Record<symbol, unknown>)[CURRENT_TEST];
  if (typeof test === 'string' && test !== '') return test;
  return request ? request.app() : null;
}
