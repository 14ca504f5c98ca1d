import type { FetchHandler } from '../base/http/exchange.ts';
import type { EmulatorConfig, EmulatorServices } from '../assembly/services.ts';

/**
 * What a listener serves: the core's `fetch`, the settings it reads, and the services PubSub runs
 * on. Declared below both the emulator and its listeners, so that the emulator can start a listener
 * and a listener can serve an emulator without either importing the other (as hono's core never
 * imports an adapter).
 */
export interface ServedCore {
  fetch: FetchHandler;
  config: Pick<EmulatorConfig, 'rpcUrl' | 'maxBodyBytes'>;
  services: EmulatorServices;
}
