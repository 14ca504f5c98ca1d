import type { RelayReceipt } from '../../../domain/relay/receipts.ts';

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

/**
 * Field by field, not `{ ...receipt, Status, … }`: V8 (Node 20) adds properties to a spread copy on
 * a slow path, on every relayed transaction (BENCHMARKS.md, "Measured reasons").
 */
export function receiptBody(receipt: RelayReceipt): ReceiptBody {
  const { status, message, signature } = receipt;
  return { status, message, signature, Status: status, Message: message, Signature: signature };
}
