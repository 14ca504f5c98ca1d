import { describe, expect, it } from 'vitest';
import { LegacyRecords, PUBLIC_FIELDS, publicRecord, publicSchemaKeys, type LegacyRecord } from './legacy-records.ts';

function record(records: LegacyRecords, patch: Partial<LegacyRecord>): LegacyRecord {
  const nulls = Object.fromEntries(PUBLIC_FIELDS.map((field) => [field, null]));
  return {
    ...(nulls as unknown as LegacyRecord),
    id: records.newId(),
    appKey: 'app-1-devnet',
    commitment: 'Confirmed',
    forwardHeaders: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    errors: [],
    feePayer: 'payer',
    mint: 'mint',
    status: 'Processing',
    tx: 'AA==',
    ...patch,
  };
}

describe('LegacyRecords', () => {
  it('answers the public fields its schema names, in its order (the list is written out so that answering loads no zod)', () => {
    expect([...PUBLIC_FIELDS]).toEqual(publicSchemaKeys());
  });

  it('finds records by reference and by signature within one app, without leaking other apps', () => {
    const records = new LegacyRecords();
    const a = records.insert(record(records, { reference: 'order-1' }));
    const b = records.insert(record(records, { reference: 'order-1' }));
    records.insert(record(records, { reference: 'order-1', appKey: 'app-2-devnet' }));
    records.update(b.id, { signature: 'sig-b', status: 'Committed' });
    expect(records.find('app-1-devnet', { reference: 'order-1' }).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(records.find('app-1-devnet', { signature: 'sig-b' }).map((r) => r.status)).toEqual(['Committed']);
    expect(records.find('app-1-devnet', { signature: 'sig-b', reference: 'other' })).toEqual([]);
    expect(records.find('app-2-devnet', { signature: 'sig-b' })).toEqual([]);
    expect(records.bySignature('sig-b')?.id).toBe(b.id);
    expect(Object.keys(publicRecord(records.get(a.id)!))).toEqual(PUBLIC_FIELDS);
  });

  it('snapshots and restores records and id counters; clear starts over', () => {
    const records = new LegacyRecords();
    records.insert(record(records, { reference: 'r', signature: 's' }));
    const snapshot = JSON.parse(JSON.stringify(records.snapshot()));
    const restored = new LegacyRecords();
    restored.restore(snapshot);
    expect(restored.all()).toEqual(records.all());
    expect(restored.find('app-1-devnet', { reference: 'r' })).toHaveLength(1);
    expect(restored.newId()).toBe('ltx00000002');
    restored.clear();
    expect(restored.all()).toEqual([]);
    expect(restored.newId()).toBe('ltx00000001');
    expect(() => restored.restore({ nextId: 1, records: [{}] })).toThrow();
  });
});
