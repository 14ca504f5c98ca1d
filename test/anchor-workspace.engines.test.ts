/**
 * An Anchor workspace loaded by `start` (option `anchor`), beside flags that name its programs
 * (issue 45, item 16: the README's own `--upgradeable-program` line failed inside a workspace, "named
 * twice"), with its `[test.validator]` genesis keys honoured and the others named (issue 43).
 * The workspace is test/real-clients/anchor/workspace: anchor-bankrun's puppet pair.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

const WORKSPACE = fileURLToPath(new URL('./real-clients/anchor/workspace', import.meta.url));
const PUPPET = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';

describe('an Anchor workspace with a flag that names one of its programs', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator({
      anchor: WORKSPACE,
      programs: [{ programId: PUPPET, path: `${WORKSPACE}/target/deploy/puppet.so`, upgradeAuthority: null, loader: 'upgradeable' }],
    });
  });
  afterAll(() => emulator.close());

  it('loads the program the flag gives, and says the workspace named it too', async () => {
    const { programs } = await emulator.programs();
    expect(programs.find((program) => program.programId === PUPPET)).toMatchObject({ loader: 'upgradeable' });
    expect(programs.map((program) => program.programId)).toContain('HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L');
    expect(emulator.warnings).toContainEqual(
      `${WORKSPACE}/target/deploy/puppet.so: ${WORKSPACE}/Anchor.toml names ${PUPPET} too; the program given by flag or option is loaded ` +
        '(--no-anchor, or option anchor left out, loads no workspace)',
    );
  });

  it('honours [test.validator] slots_per_epoch and accounts, and names the keys it does not honour', async () => {
    expect(emulator.services.ledger.epochSchedule.slotsPerEpoch).toBe(64n);
    expect(await emulator.getAccount('2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR')).toMatchObject({ owner: PUPPET });
    expect(emulator.warnings).toContainEqual(
      expect.stringMatching(/Anchor\.toml: \[test\.validator\] bind_address, rpc_port, faucet_port not honoured by this start/),
    );
  });
});
