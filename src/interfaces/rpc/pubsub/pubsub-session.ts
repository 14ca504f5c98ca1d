import type { RpcDeps } from '../rpc-deps.ts';
import { accountEncodingOf } from '../account-json.ts';
import { accountFiltersOf } from '../account-filters.ts';
import { commitmentOf } from '../context.ts';
import { JsonRpcError, RPC_ERROR } from '../json-rpc-error.ts';
import { configObject, optionalBoolean, positional, requirePubkey, requireSignature } from '../params.ts';
import { stringifyRpc } from '../rpc-json.ts';
import { check, collect, NOTIFICATION, type LedgerEvent, type LogsFilter, type Subscription } from './pubsub-subscriptions.ts';

export interface PubSubOptions {
  /** How often subscriptions are checked against the ledger and submissions, in ms. Default 10. */
  pollMs: number;
  /** Subscriptions one connection may hold at once. Default 1,000. */
  maxPerConnection: number;
  /**
   * Subscriptions every connection to one emulator may hold at once. Default 10,000: the
   * validator's `--rpc-pubsub-max-active-subscriptions` is 1,000,000, sized for a server's cores;
   * each of these is checked every `pollMs` (x-emulator-choice).
   */
  maxActive: number;
}

const DEFAULT_PUBSUB_OPTIONS: PubSubOptions = { pollMs: 10, maxPerConnection: 1_000, maxActive: 10_000 };

/** The validator's answer past its subscription limit (agave rpc_pubsub.rs check_subscription_count). */
export const SUBSCRIPTION_REFUSED = 'Internal Error: Subscription refused. Node subscription limit reached';

/** Subscriptions held across an emulator's connections, by its ledger. */
const activeByLedger = new WeakMap<object, { count: number }>();

/** One client connection's subscriptions. */
export interface PubSubSession {
  /** Handles one text message from the client. */
  receive(text: string): Promise<void>;
  /** Drops every subscription (the connection closed). */
  close(): void;
}

/**
 * Solana's PubSub (the RPC's WebSocket side) for one connection: signatureSubscribe (what web3.js
 * `confirmTransaction` waits on), accountSubscribe, programSubscribe, logsSubscribe, slotSubscribe
 * and rootSubscribe, with their unsubscribe methods. Subscriptions are checked against the
 * submissions and the ledger every `pollMs` while any exist (pubsub-subscriptions.ts); logs and
 * program subscriptions also hear the ledger's events, so that no transaction slips between two
 * checks. A signature subscription ends with its one notification, as on Solana.
 */
export function createPubSubSession(deps: RpcDeps, send: (text: string) => void, options: Partial<PubSubOptions> = {}): PubSubSession {
  const { pollMs, maxPerConnection, maxActive } = { ...DEFAULT_PUBSUB_OPTIONS, ...options };
  const subscriptions = new Map<number, Subscription>();
  let active = activeByLedger.get(deps.ledger);
  if (!active) activeByLedger.set(deps.ledger, (active = { count: 0 }));
  const shared = active;
  /** Forgets one subscription (or every one), keeping the emulator's count. */
  const drop = (id?: number) => {
    if (id === undefined) {
      shared.count -= subscriptions.size;
      subscriptions.clear();
    } else if (subscriptions.delete(id)) shared.count -= 1;
  };
  let nextId = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let ticking = false;
  let closed = false;
  /** Stops hearing the ledger; set while a logs or program subscription exists. */
  let unlisten: (() => void) | null = null;

  const tick = async () => {
    if (ticking || closed) return;
    ticking = true;
    try {
      for (const [id, subscription] of [...subscriptions]) {
        if (!subscriptions.has(id)) continue;
        const notify = (result: unknown) => {
          if (subscriptions.has(id)) send(stringifyRpc({ jsonrpc: '2.0', method: NOTIFICATION[subscription.kind], params: { result, subscription: id } }));
        };
        if (!(await check(deps, subscription, notify))) drop(id);
      }
    } finally {
      ticking = false;
      if (subscriptions.size === 0) stop();
    }
  };

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    unlisten?.();
    unlisten = null;
  };

  const subscribe = (subscription: Subscription): number => {
    // A message read after the socket closed subscribes nothing (nobody would unsubscribe it).
    if (closed) throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, 'Internal error');
    if (subscriptions.size >= maxPerConnection || shared.count >= maxActive) throw new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, SUBSCRIPTION_REFUSED);
    const id = nextId;
    nextId += 1;
    subscriptions.set(id, subscription);
    shared.count += 1;
    if (!closed && !timer) {
      timer = setInterval(() => void tick(), pollMs);
      timer.unref?.();
    }
    if (!closed && !unlisten && (subscription.kind === 'logs' || subscription.kind === 'program' || subscription.kind === 'account')) {
      const hear = (event: LedgerEvent) => {
        for (const each of subscriptions.values()) collect(each, event);
      };
      const transactions = deps.events.on('transaction', (event) => hear({ kind: 'transaction', ...event }));
      const accounts = deps.events.on('accounts', (event) => hear({ kind: 'accounts', ...event }));
      unlisten = () => {
        transactions();
        accounts();
      };
    }
    return id;
  };

  const unsubscribe = (params: unknown, kind: Subscription['kind']): boolean => {
    const [raw] = positional(params, `${kind}Unsubscribe`, { min: 1, max: 1 });
    const id = typeof raw === 'number' ? raw : Number.NaN;
    if (subscriptions.get(id)?.kind !== kind) throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'Invalid subscription id.');
    drop(id);
    return true;
  };

  const methods: Record<string, (params: unknown) => Promise<unknown> | unknown> = {
    signatureSubscribe(params) {
      const [signature, raw] = positional(params, 'signatureSubscribe', { min: 1, max: 2 });
      const config = configObject(raw);
      return subscribe({
        kind: 'signature',
        signature: requireSignature(signature),
        commitment: commitmentOf(config),
        received: optionalBoolean(config, 'enableReceivedNotification') ?? false,
        receivedSent: false,
      });
    },
    signatureUnsubscribe: (params) => unsubscribe(params, 'signature'),
    accountSubscribe(params) {
      const [address, raw] = positional(params, 'accountSubscribe', { min: 1, max: 2 });
      const key = requirePubkey(address);
      const config = configObject(raw);
      // Each write after the subscription, as the ledger tells it: nothing is read until one comes.
      return subscribe({
        kind: 'account',
        address: key,
        key: key.toBase58(),
        encoding: accountEncodingOf(config, 'binary'),
        commitment: commitmentOf(config),
        pending: [],
      });
    },
    accountUnsubscribe: (params) => unsubscribe(params, 'account'),
    programSubscribe(params) {
      const [program, raw] = positional(params, 'programSubscribe', { min: 1, max: 2 });
      const config = configObject(raw);
      return subscribe({
        kind: 'program',
        program: requirePubkey(program),
        encoding: accountEncodingOf(config, 'binary'),
        filters: accountFiltersOf(config.filters),
        commitment: commitmentOf(config),
        pending: [],
      });
    },
    programUnsubscribe: (params) => unsubscribe(params, 'program'),
    logsSubscribe(params) {
      const [filter, raw] = positional(params, 'logsSubscribe', { min: 1, max: 2 });
      const config = configObject(raw);
      return subscribe({ kind: 'logs', filter: logsFilterOf(filter), commitment: commitmentOf(config), pending: [] });
    },
    logsUnsubscribe: (params) => unsubscribe(params, 'logs'),
    slotSubscribe(params) {
      positional(params, 'slotSubscribe', { min: 0, max: 0 });
      return subscribe({ kind: 'slot', last: deps.ledger.clock().slot });
    },
    slotUnsubscribe: (params) => unsubscribe(params, 'slot'),
    rootSubscribe(params) {
      positional(params, 'rootSubscribe', { min: 0, max: 0 });
      return subscribe({ kind: 'root', last: deps.ledger.slotAt('finalized') });
    },
    rootUnsubscribe: (params) => unsubscribe(params, 'root'),
    slotsUpdatesSubscribe(params) {
      positional(params, 'slotsUpdatesSubscribe', { min: 0, max: 0 });
      const { ledger } = deps;
      return subscribe({ kind: 'slotsUpdates', last: ledger.clock().slot, confirmed: ledger.slotAt('confirmed'), root: ledger.slotAt('finalized') });
    },
    slotsUpdatesUnsubscribe: (params) => unsubscribe(params, 'slotsUpdates'),
  };

  return {
    async receive(text) {
      let call: Record<string, unknown>;
      try {
        call = JSON.parse(text) as Record<string, unknown>;
      } catch {
        send(stringifyRpc({ jsonrpc: '2.0', error: { code: RPC_ERROR.PARSE_ERROR, message: 'Parse error' }, id: null }));
        return;
      }
      if (typeof call !== 'object' || call === null || Array.isArray(call) || call.jsonrpc !== '2.0' || typeof call.method !== 'string') {
        send(stringifyRpc({ jsonrpc: '2.0', error: { code: RPC_ERROR.INVALID_REQUEST, message: 'Invalid request' }, id: null }));
        return;
      }
      // Notifications (web3.js sends `ping` every 5 s) get no answer.
      if (!('id' in call)) return;
      const id = call.id as string | number | null;
      const method = Object.hasOwn(methods, call.method) ? methods[call.method] : undefined;
      if (!method) {
        send(stringifyRpc({ jsonrpc: '2.0', error: { code: RPC_ERROR.METHOD_NOT_FOUND, message: 'Method not found' }, id }));
        return;
      }
      try {
        const result = await method(call.params);
        send(stringifyRpc({ jsonrpc: '2.0', result, id }));
      } catch (error) {
        const rpcError = error instanceof JsonRpcError ? error : new JsonRpcError(RPC_ERROR.INTERNAL_ERROR, 'Internal error');
        send(stringifyRpc({ jsonrpc: '2.0', error: rpcError.toJSON(), id }));
      }
    },
    close() {
      closed = true;
      drop();
      stop();
    },
  };
}

/** `"all"`, `"allWithVotes"` (no votes here: the same) or `{mentions: [address]}` (one address, as the validator allows). */
function logsFilterOf(value: unknown): LogsFilter {
  if (value === 'all' || value === 'allWithVotes') return { all: true };
  const mentions = (value as { mentions?: unknown } | null)?.mentions;
  if (typeof value === 'object' && value !== null && Array.isArray(mentions)) {
    if (mentions.length !== 1) throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'Invalid Request: Only 1 address supported');
    return { mentions: [requirePubkey(mentions[0]).toBase58()] };
  }
  throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'Invalid params: data did not match any variant of untagged enum RpcTransactionLogsFilter');
}
