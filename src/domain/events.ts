import type { Exchange } from '../base/http/exchange.ts';
import { Emitter } from '../base/events/emitter.ts';
import type { LedgerEvents } from './ledger/ledger-types.ts';
import type { StateChangeEvents } from './state/change-feed.ts';

/**
 * Every event of an emulator, on its one emitter:
 * - `transaction`: a transaction landed in a block (the ledger; PubSub's logs and program subscriptions hear it);
 * - `accounts`: accounts written directly, by a control, a restore or a deploy (the ledger; PubSub);
 * - `state-change`: one atomic unit of state changes (the change feed; the state file's journal and the UI's live feed);
 * - `exchange`: a request answered (the core's outermost middleware; the request journal, the server's log, the live feed, `emulator.observe`);
 * - `wallet-request`: a test wallet's request kept for the web UI, by its id (`emulator.recordWalletRequest`; the live feed).
 */
export interface EmulatorEvents extends LedgerEvents, StateChangeEvents {
  exchange: Exchange;
  'wallet-request': number;
}

export type EmulatorEmitter = Emitter<EmulatorEvents>;

export function createEmitter(): EmulatorEmitter {
  return new Emitter<EmulatorEvents>();
}
