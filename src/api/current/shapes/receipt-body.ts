import type { RelayReceipt } from '../../../relay/receipts.ts';

/**
 * A relay receipt as the current interface answers it: the spec's lowercase keys (2.1), and the
 * same values in PascalCase, since the Android SDK decodes `TransactionResponse(Status, Message,
 * Signature)` with every field required and case-sensitive kotlinx.serialization, and altude-js
 * and the dynamic demo read `Signature ?? signature`.
 */
export interface ReceiptBody extends RelayReceipt {
  Status: RelayReceipt['status'];
  Message: string;
  Signature: string;
}

export function receiptBody(receipt: RelayReceipt): ReceiptBody {
  return { ...receipt, Status: receipt.status, Message: receipt.message, Signature: receipt.signature };
}
