import { afterAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator, sealSnapshot } from '../src/index.ts';
import { newKeypair } from './support/keys.ts';

// The submissions' state part was called "records" before issue 26 named it: state files and
// exports written then must still restore, and new ones carry the new name only.
describe('a state part read by its former name', () => {
  const emulators: RelayEmulator[] = [];
  afterAll(async () => {
    for (const emulator of emulators) await emulator.close();
  });

  it('restores a snapshot that keeps the submissions under "records", and writes them under "submissions"', async () => {
    const source = await createRelayEmulator();
    emulators.push(source);
    const owner = newKeypair().publicKey.toBase58();
    const response = await source.fetch(
      new Request(source.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [owner, 1_000_000] }),
      }),
    );
    const signature = ((await response.json()) as { result: string }).result;
    await source.settle();
    const snapshot = await source.snapshot();
    expect(Object.keys(snapshot.parts)).toContain('submissions');
    expect(Object.keys(snapshot.parts)).not.toContain('records');
    const { submissions, ...others } = snapshot.parts as Record<string, unknown>;
    const older = sealSnapshot({ ...snapshot, parts: { ...others, records: submissions } });

    const restored = await createRelayEmulator();
    emulators.push(restored);
    expect(restored.services.submissions.get(signature)).toBeUndefined();
    await restored.restore(older);
    expect(restored.services.submissions.get(signature)).toMatchObject({ signature, status: 'processed' });
    expect(Object.keys((await restored.snapshot()).parts)).toContain('submissions');
  });
});
