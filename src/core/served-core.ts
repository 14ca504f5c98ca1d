import type { Core } from './create-fetch.ts';

/**
 * What a listener serves: the core's `fetch`, its WebSocket upgrades, and the body cap it buffers
 * bodies under. Declared below both the emulator and its listeners, so that the emulator can start
 * a listener and a listener can serve an emulator without either importing the other (as hono's
 * core never imports an adapter).
 */
export interface ServedCore {
  fetch: Core['fetch'];
  upgrade: Core['upgrade'];
  config: { maxBodyBytes: number };
}
