import type { ConformanceCheck } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { authChecks } from './auth-checks.ts';
import { configChecks } from './config-checks.ts';
import { historyChecks } from './history-checks.ts';
import { kineticChecks } from './kinetic-checks.ts';
import { koraChecks } from './kora-checks.ts';
import { legacyChecks } from './legacy-checks.ts';
import { realClientChecks } from './real-client-checks.ts';
import { rejectionChecks } from './rejection-checks.ts';
import { relayChecks } from './relay-checks.ts';

export { exchangeChecks } from './exchange-checks.ts';

/** Every check that talks to the target, in run order. The exchange checks (responses.json, contract.*) follow them. */
export const TARGET_CHECKS: readonly ConformanceCheck<ConformanceContext>[] = [
  ...configChecks,
  ...authChecks,
  ...rejectionChecks,
  // Before the relay checks: the gasless-wallet check needs the scenario's account before its close.
  ...realClientChecks,
  ...relayChecks,
  ...historyChecks,
  ...legacyChecks,
  ...kineticChecks,
  ...koraChecks,
];
