import type { EmulatorServices } from '../services.ts';
import type { StatefulPart } from '../state/state-registry.ts';
import { LegacyApps } from './legacy-apps.ts';
import { LegacyRecords } from './legacy-records.ts';
import { LegacyRelay } from './legacy-relay.ts';

/** The legacy interface's own parts: its apps, its transaction records and its relay lifecycle. */
export interface LegacyService {
  apps: LegacyApps;
  records: LegacyRecords;
  relay: LegacyRelay;
  /** Resolves once every background finalization and event webhook is done. */
  settle(): Promise<void>;
}

const services = new WeakMap<EmulatorServices, LegacyService>();

/**
 * The legacy service of an emulator, created on first use from its fixtures (`fixtures.extra.apps`).
 * Route handlers and tests reach it through the emulator's services.
 */
export function legacyOf(emulator: EmulatorServices): LegacyService {
  let legacy = services.get(emulator);
  if (!legacy) {
    const apps = new LegacyApps(emulator.fixtures, { rpcUrl: emulator.config.rpcUrl, origin: new URL(emulator.config.baseUrl).origin });
    const records = new LegacyRecords();
    const relay = new LegacyRelay({ services: emulator, apps, records });
    legacy = { apps, records, relay, settle: () => relay.settle() };
    services.set(emulator, legacy);
  }
  return legacy;
}

/** The legacy records as a stateful part (reset, state file). Apps come from fixtures and are not state. */
export function legacyStatePart(emulator: EmulatorServices): StatefulPart {
  const legacy = legacyOf(emulator);
  return {
    name: 'legacy',
    snapshot: () => legacy.records.snapshot(),
    restore: (data) => legacy.records.restore(data),
    reset: () => legacy.records.clear(),
  };
}
