import { PublicKey } from '@solana/web3.js';
import type { EmulatorServices } from '../../services.ts';
import type { Submission } from '../../store/submissions.ts';
import { accountEncodingOf, accountJson, type AccountEncodingOptions } from '../account-json.ts';
import { COMMITMENTS, commitmentOf, type RpcCommitment } from '../context.ts';
import { JsonRpcError, RPC_ERROR } from '../json-rpc-error.ts';
import { configObject, optionalBoolean, positional, requirePubkey, requireSignature } from '../params.ts';
import { stringifyRpc } from '../rpc-json.ts';

export interface PubSubOptions {
  /** How often subscriptions are checked against the ledger and submissions, in ms. Default 10. */
  pollMs: number;
}

export const DEFAULT_PUBSUB_OPTIONS: PubSubOptions = { pollMs: 10 };

/** One client connection's subscriptions. */
export interface PubSubSession {
  /** Handles one text message from the client. */
  receive(text: string): Promise<void>;
  /** Drops every subscription (the connection closed). */
  close(): void;
}

type Subscription =
  | { kind: 'signature'; signature: string; commitment: RpcCommitment; received: boolean; receivedSent: boolean }
  | { kind: 'account'; address: PublicKey; encoding: AccountEncodingOptions; last: string | null }
  | { kind: 'slot'; last: bigint };

const NOTIFICATION: Record<Subscription['kind'], string> = {
  signature: 'signatureNotification',
  account: 'accountNotification',
  slot: 'slotNotification',
};

/**
 * Solana's PubSub (the RPC's WebSocket side) for one connection: signatureSubscribe (what web3.js
 * `confirmTransaction` waits on), accountSubscribe and slotSubscribe, with their unsubscribe
 * methods. Subscriptions are checked against the submissions and the ledger every `pollMs` while any
 * exist; a signature subscription ends with its one notification, as on Solana.
 */
export function createPubSubSession(services: EmulatorServices, send: (text: string) => void, options: Partial<PubSubOptions> = {}): PubSubSession {
  const { pollMs } = { ...DEFAULT_PUBSUB_OPTIONS, ...options };
  const subscriptions = new Map<number, Subscription>();
  let nextId = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let ticking = false;
  let closed = false;

  const notify = (id: number, kind: Subscription['kind'], result: unknown) =>
    send(stringifyRpc({ jsonrpc: '2.0', method: NOTIFICATION[kind], params: { result, subscription: id } }));

  const tick = async () => {
    if (ticking || closed) return;
    ticking = true;
    try {
      const slot = services.ledger.clock().slot;
      for (const [id, subscription] of [...subscriptions]) {
        if (!subscriptions.has(id)) continue;
        const context = { slot: Number(slot) };
        if (subscription.kind === 'signature') {
          const record = services.submissions.get(subscription.signature);
          if (record && subscription.received && !subscription.receivedSent) {
            subscription.receivedSent = true;
            notify(id, 'signature', { context, value: 'receivedSignature' });
          }
          if (record && reached(record, subscription.commitment)) {
            subscriptions.delete(id);
            notify(id, 'signature', { context: { slot: Number(record.ledger!.slot) }, value: { err: record.ledger!.err } });
          }
        } else if (subscription.kind === 'slot') {
          if (slot !== subscription.last) {
            subscription.last = slot;
            notify(id, 'slot', { parent: Number(slot) - 1, root: Number(slot), slot: Number(slot) });
          }
        } else {
          const account = await services.ledger.getAccount(subscription.address);
          const value = account ? await accountJson(account, subscription.encoding, services.ledger) : null;
          const text = stringifyRpc(value);
          if (text !== subscription.last && subscriptions.has(id)) {
            subscription.last = text;
            notify(id, 'account', { context, value });
          }
        }
      }
    } finally {
      ticking = false;
      if (subscriptions.size === 0 && timer) {
        clearInterval(timer);
        timer = null;
      }
    }
  };

  const watch = () => {
    if (timer || closed) return;
    timer = setInterval(() => void tick(), pollMs);
    timer.unref?.();
  };

  const subscribe = (subscription: Subscription): number => {
    const id = nextId;
    nextId += 1;
    subscriptions.set(id, subscription);
    watch();
    return id;
  };

  const unsubscribe = (params: unknown, kind: Subscription['kind']): boolean => {
    const [raw] = positional(params, `${kind}Unsubscribe`, { min: 1, max: 1 });
    const id = typeof raw === 'number' ? raw : Number.NaN;
    if (subscriptions.get(id)?.kind !== kind) throw new JsonRpcError(RPC_ERROR.INVALID_PARAMS, 'Invalid subscription id.');
    subscriptions.delete(id);
    return true;
  };

  const methods: Record<string, (params: unknown) => Promise<unknown> | unknown> = {
    signatureSubscribe(params) {
      const [signature, raw] = positional(params, 'signatureSubscribe', { min: 1, max: 2 });
      const config = configObject(raw, ['commitment', 'enableReceivedNotification']);
      return subscribe({
        kind: 'signature',
        signature: requireSignature(signature),
        commitment: commitmentOf(config),
        received: optionalBoolean(config, 'enableReceivedNotification') ?? false,
        receivedSent: false,
      });
    },
    signatureUnsubscribe: (params) => unsubscribe(params, 'signature'),
    async accountSubscribe(params) {
      const [address, raw] = positional(params, 'accountSubscribe', { min: 1, max: 2 });
      const key = requirePubkey(address);
      const config = configObject(raw, ['commitment', 'encoding', 'dataSlice']);
      commitmentOf(config);
      const encoding = accountEncodingOf(config, 'binary');
      const account = await services.ledger.getAccount(key);
      // Notifications are for changes after the subscription, so remember the current state.
      const last = stringifyRpc(account ? await accountJson(account, encoding, services.ledger) : null);
      return subscribe({ kind: 'account', address: key, encoding, last });
    },
    accountUnsubscribe: (params) => unsubscribe(params, 'account'),
    slotSubscribe(params) {
      positional(params, 'slotSubscribe', { min: 0, max: 0 });
      return subscribe({ kind: 'slot', last: services.ledger.clock().slot });
    },
    slotUnsubscribe: (params) => unsubscribe(params, 'slot'),
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
      subscriptions.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

function reached(record: Submission, commitment: RpcCommitment): boolean {
  if (!record.ledger || record.commitment === null) return false;
  return COMMITMENTS.indexOf(record.commitment) >= COMMITMENTS.indexOf(commitment);
}
