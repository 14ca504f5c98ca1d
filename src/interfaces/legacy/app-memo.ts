/**
 * The app-index memo legacy clients attach when a mint has `addMemo` (the Agora memo layout, sent
 * through Memo v1 as base64 text): 32 bytes, little-endian bit fields
 *   bits 0-1 magic (1) · bits 2-4 version · bits 5-9 transaction type · bits 10-25 app index ·
 *   bits 26-255 foreign key.
 * The foreign key is left zero here; the emulator only reads and writes the app index.
 */
export interface AppMemo {
  version: number;
  /** 0 none, 1 earn, 2 spend, 3 peer-to-peer. */
  type: number;
  index: number;
  /** Bits 26-255 as hex (58 digits), when read from a memo; all zero in the memos the emulator writes. */
  foreignKey?: string;
}

const MEMO_BYTES = 32;
const MAGIC = 1;

/** The memo text (base64 of 32 bytes) for an app index. */
export function encodeAppMemo(memo: { index: number; type?: number; version?: number }): string {
  const { index, type = 0, version = 1 } = memo;
  if (!Number.isInteger(index) || index < 0 || index > 0xffff) throw new RangeError('app index must fit in 16 bits');
  if (!Number.isInteger(type) || type < 0 || type > 31) throw new RangeError('transaction type must fit in 5 bits');
  if (!Number.isInteger(version) || version < 0 || version > 7) throw new RangeError('memo version must fit in 3 bits');
  const bytes = new Uint8Array(MEMO_BYTES);
  bytes[0] = MAGIC | (version << 2) | ((type & 0x7) << 5);
  bytes[1] = ((type >> 3) & 0x3) | ((index & 0x3f) << 2);
  bytes[2] = (index >> 6) & 0xff;
  bytes[3] = (index >> 14) & 0x3;
  return Buffer.from(bytes).toString('base64');
}

/** Reads an app memo from memo text, or null when the text is not one. */
export function decodeAppMemo(text: string): AppMemo | null {
  const compact = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length !== MEMO_BYTES || (bytes[0]! & 0x3) !== MAGIC) return null;
  return {
    version: (bytes[0]! >> 2) & 0x7,
    type: (bytes[0]! >> 5) | ((bytes[1]! & 0x3) << 3),
    index: (bytes[1]! >> 2) | (bytes[2]! << 6) | ((bytes[3]! & 0x3) << 14),
    foreignKey: (BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`) >> 26n).toString(16).padStart(58, '0'),
  };
}
