import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a sponsored transaction is charged to in the sponsor-cost report (issue 44): the test that
 * sent it. Each accepted submission keeps the label current when it was accepted:
 * 1. the request's `X-Relay-Emulator-Test` header (a client that is not in process names its test);
 * 2. else the vitest test whose code accepted it in this process, by the async context it runs in
 *    (`relay-emulator/vitest`'s setup runs each test inside {@link TEST_LABELS}: concurrent tests
 *    keep their own), a request from a test's client to a loopback port carrying its header;
 * 3. else the request's app: `app <X-API-Key>` on the current interface, else its interface
 *    (`legacy`, `kora`, `rpc`); null for what no request carried (a control's own transaction).
 */
export const COST_LABEL_HEADER = 'x-relay-emulator-test';
/** `percent` when {@link COST_LABEL_HEADER} is percent-encoded UTF-8 (a test name past printable ASCII). */
export const COST_LABEL_ENCODING_HEADER = 'x-relay-emulator-test-encoding';

/** What a request says of itself: its header's test name, and the app it came from. */
export interface RequestCostLabel {
  test: string | null;
  app: () => string;
}

const requests = new AsyncLocalStorage<RequestCostLabel>();

/**
 * The test a piece of code runs for, by async context: `relay-emulator/vitest`'s setup runs each
 * test inside it. One per process, whichever copy of the package loaded it (a global symbol).
 */
export const TEST_LABELS: AsyncLocalStorage<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('relay-emulator.test-labels')] ??=
  new AsyncLocalStorage<string>()) as AsyncLocalStorage<string>;

/** Runs `next` as part of a request that says `label` of itself. */
export function withCostLabel<T>(label: RequestCostLabel, next: () => T): T {
  return requests.run(label, next);
}

/** The label of what is accepted now (see above), or null. */
export function currentCostLabel(): string | null {
  const request = requests.getStore();
  if (request?.test) return request.test;
  const test = TEST_LABELS.getStore();
  if (test !== undefined && test !== '') return test;
  return request ? request.app() : null;
}
