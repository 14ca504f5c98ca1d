import { describe, expect, it } from 'vitest';
import { parseTestValidatorArgs } from './test-validator-options.ts';

describe('parseTestValidatorArgs', () => {
  it('reads the argv anchor test 0.30 builds, into start’s options with a validator’s defaults', () => {
    // lib.rs start_test_validator and validator_flags: --ledger, --mint, the programs, then [test.validator] in key order.
    const options = parseTestValidatorArgs(
      [
        '--ledger',
        '.anchor/test-ledger',
        '--mint',
        'So11111111111111111111111111111111111111112',
        '--bpf-program',
        'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS',
        '/w/target/deploy/puppet.so',
        '--account',
        '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR',
        'accounts/puppet-data.json',
        '--bind-address',
        '0.0.0.0',
        '--faucet-port',
        '9900',
        '--rpc-port',
        '8899',
        '--slots-per-epoch',
        '64',
      ],
      {},
      '/nonexistent',
    );
    expect(options.start).toMatchObject({
      port: 8899,
      host: '0.0.0.0',
      rpcAuth: 'off',
      anchor: null,
      stateFile: expect.stringMatching(/\/\.anchor\/test-ledger\/relay-emulator\.state\.json$/),
    });
    expect(options.start.programs).toEqual([{ programId: 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS', path: '/w/target/deploy/puppet.so' }]);
    expect(options.start.accounts).toEqual([
      { address: '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR', path: expect.stringMatching(/\/accounts\/puppet-data\.json$/) },
    ]);
    expect(options.start.genesis).toEqual({
      fund: [{ address: 'So11111111111111111111111111111111111111112', lamports: 500_000_000_000_000_000n }],
      slotsPerEpoch: 64,
    });
    expect(options.noted).toEqual(['--faucet-port']);
    expect(options.mint).toEqual({ address: 'So11111111111111111111111111111111111111112', from: '--mint' });
  });

  it('defaults to 8899 on 127.0.0.1 and test-ledger, with no mint when there is no CLI keypair', () => {
    const options = parseTestValidatorArgs([], {}, '/nonexistent');
    expect(options.start).toMatchObject({ port: 8899, host: '127.0.0.1', stateFile: expect.stringMatching(/\/test-ledger\/relay-emulator\.state\.json$/) });
    // A validator's timing (slots with time, commitments lagging), unless --timing or its variable says otherwise.
    expect(options.start.timing).toBe('validator');
    expect(parseTestValidatorArgs(['--timing', 'instant'], {}, '/nonexistent').start.timing).toBe('instant');
    expect(parseTestValidatorArgs([], { RELAY_EMULATOR_TIMING: 'instant' }, '/nonexistent').start.timing).toBe('instant');
    expect(options.mint).toBeNull();
    expect(options.start.genesis).toEqual({});
  });

  it('takes short forms, --flag=value, an optional value left out, and relay-emulator’s own flags', () => {
    const options = parseTestValidatorArgs(
      ['-l', 'x', '-r', '-q', '--rpc-port=9000', '--limit-ledger-size', '--engine', 'bankrun', '--kora-port', '0'],
      {},
      '/nonexistent',
    );
    expect(options).toMatchObject({ reset: true, quiet: true, noted: ['--limit-ledger-size'] });
    expect(options.start).toMatchObject({ port: 9000, engine: 'bankrun', koraPort: 0 });
  });

  it('collects the clone flags for the clone cache, and wants --url with them', () => {
    const options = parseTestValidatorArgs(
      ['-u', 'm', '-c', 'A', '--maybe-clone', 'B', '--clone-upgradeable-program', 'C', '--deep-clone-address-lookup-table', 'D', '-w'],
      {},
      '/nonexistent',
    );
    expect(options.clone).toEqual({ url: 'm', clone: ['A'], maybeClone: ['B'], upgradeablePrograms: ['C'], lookupTables: ['D'], warpToUrlSlot: true });
    expect(() => parseTestValidatorArgs(['--clone', 'A'], {}, '/nonexistent')).toThrow(/need --url/);
    expect(() => parseTestValidatorArgs(['--quiet', '--log'], {}, '/nonexistent')).toThrow(/--quiet and --log: give one/);
    expect(() => parseTestValidatorArgs(['--mint', 'A', '--mint', 'B'], {}, '/nonexistent')).toThrow(/--mint was given twice/);
  });
});
