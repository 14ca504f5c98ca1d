import type { RelayOperation } from './policy.ts';

/** The receipt texts of spec 2.1. */
export const RECEIPT_MESSAGES: Record<RelayOperation, string> = {
  create: 'Account creation transaction queued successfully.',
  close: 'Account close transaction queued successfully.',
  send: 'Transaction sent successfully',
  sendbatch: 'Transaction sent successfully',
};

/** What a relay answers at once: the transaction is queued, under its fee-payer signature. */
export interface RelayReceipt {
  status: 'Queued';
  message: string;
  signature: string;
}

export function receiptOf(operation: RelayOperation, signature: string): RelayReceipt {
  return { status: 'Queued', message: RECEIPT_MESSAGES[operation], signature };
}
