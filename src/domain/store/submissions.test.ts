import { describe, expect, it } from 'vitest';
import { parseSubmission, Submissions, type Submission } from './submissions.ts';

const record = (signature: string): Submission => ({
  signature,
  origin: 'send',
  status: 'queued',
  commitment: null,
  message: 'Transaction sent successfully',
  wire: 'AA==',
  receivedAt: '2026-01-01T00:00:00.000Z',
  ledger: null,
  injectedError: null,
  policyChecked: true,
  strictBreaks: [],
  sponsorExposure: 0n,
  label: null,
  payments: [],
});

describe('Submissions', () => {
  it('stores a record in the same tick, so a queue worker that runs next finds it', () => {
    const records = new Submissions();
    records.insert(record('a'));
    expect(records.get('a')?.status).toBe('queued');
  });

  it('never changes a record in place: a record read before an update keeps what it said', () => {
    const records = new Submissions();
    const before = records.insert(record('a'));
    const after = records.update('a', { status: 'processed', commitment: 'confirmed' });
    expect(before.status).toBe('queued');
    expect(after).toMatchObject({ status: 'processed', commitment: 'confirmed' });
    expect(records.get('a')).toBe(after);
    expect(() => records.update('missing', { status: 'failed' })).toThrow('no submission missing');
  });

  it('lists oldest first, an update keeping its place; clear empties it', () => {
    const records = new Submissions();
    for (const signature of ['a', 'b', 'c']) records.insert(record(signature));
    records.update('a', { status: 'failed' });
    expect(records.all().map((r) => r.signature)).toEqual(['a', 'b', 'c']);
    records.clear();
    expect(records.all()).toEqual([]);
  });

  it('checks a record read back from a state file, defaulting a missing injectedError', () => {
    const { injectedError: _, ...old } = record('a');
    expect(parseSubmission(old).injectedError).toBeNull();
    // A state file from before the policy profiles: nothing was sponsored beyond strict.
    const { strictBreaks: _b, sponsorExposure: _e, ...older } = old;
    expect(parseSubmission(older)).toMatchObject({ strictBreaks: [], sponsorExposure: 0n });
    expect(() => parseSubmission({ ...old, status: 'lost' })).toThrow();
  });
});
