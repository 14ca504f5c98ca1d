import { delimiter, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStartCommand } from './start-command.ts';
import { START_FLAGS } from './start-flags.ts';
import { parseStartOptions, startUsage, UsageError } from './start-options.ts';

describe('relay-emulator start options', () => {
  it('defaults to 127.0.0.1:8787 and the bundled fixtures', () => {
    expect(parseStartOptions([], {})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      publicUrl: null,
      apiKeys: null,
      fixtures: null,
      stateFile: null,
      importFile: null,
      stateIntervalMs: 5000,
      tokenTtlSeconds: null,
      logLevel: 'info',
      adminToken: null,
      controlOrigins: [],
      journalLimit: null,
      slotTimeMs: null,
      timing: 'instant',
      rpcAuth: 'remote',
      skipPreflight: false,
      readyFile: null,
      koraConfig: null,
      koraSigners: null,
      koraPort: null,
      pubsubPort: null,
      surfnet: null,
      engine: 'litesvm',
      policy: null,
      programs: [],
      accounts: [],
      accountDirs: [],
      anchor: null,
      watch: false,
      genesis: null,
      clone: null,
      cluster: { genesis: 'app' },
      sponsorCosts: null,
      acceptStateLoss: false,
      help: false,
    });
  });

  it('takes --import FILE (RELAY_EMULATOR_IMPORT), and refuses it beside --state-file', () => {
    expect(parseStartOptions(['--import', 'state.json'], {}).importFile).toBe('state.json');
    expect(parseStartOptions([], { RELAY_EMULATOR_IMPORT: 'env.json' }).importFile).toBe('env.json');
    expect(() => parseStartOptions(['--import', 'a.json', '--state-file', 'b.json'], {})).toThrow(/--import and --state-file/);
  });

  it('reads every flag, with repeatable --api-key', () => {
    const options = parseStartOptions(
      [
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--public-url',
        'http://10.0.2.2:8787',
        '--api-key',
        'a',
        '--api-key',
        'b',
        '--fixtures',
        'fx',
        '--state-file',
        's.json',
        '--state-interval',
        '0',
        '--token-ttl',
        '60',
        '--log-level',
        'debug',
        '--admin-token',
        't',
        '--control-origin',
        'http://localhost:5173',
        '--control-origin',
        'https://app.test',
        '--journal-limit',
        '0',
        '--slot-time',
        '400',
        '--policy',
        'strict',
        '--no-rpc-auth',
        '--skip-preflight',
        '--ready-file',
        'ready.json',
        '--engine',
        'litesvm',
        '--kora-signers',
        'signers.toml',
        '--kora-config',
        'kora.toml',
        '--kora-port',
        '8080',
        '--bpf-program',
        'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV',
        'noop.so',
        '--upgradeable-program',
        'app-keypair.json',
        '/abs/app.so',
        'none',
        '--upgradeable-program',
        'Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX',
        'reg.so',
        'authority.json',
        '--account',
        '-',
        'dump.json',
        '--account',
        '34w7KcLBXabMkHuXE2fY368vFe6kP3v5EJn8nPvQ8SKn',
        'other.json',
        '--account-dir',
        'accounts',
        '--account-dir',
        '/more',
        '--genesis',
        'validator',
        '--timing',
        'validator',
      ],
      {},
    );
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      publicUrl: 'http://10.0.2.2:8787',
      apiKeys: ['a', 'b'],
      fixtures: 'fx',
      stateFile: 's.json',
      importFile: null,
      stateIntervalMs: 0,
      tokenTtlSeconds: 60,
      logLevel: 'debug',
      adminToken: 't',
      controlOrigins: ['http://localhost:5173', 'https://app.test'],
      journalLimit: 0,
      slotTimeMs: 400,
      timing: 'validator',
      rpcAuth: 'off',
      skipPreflight: true,
      readyFile: 'ready.json',
      koraConfig: 'kora.toml',
      koraSigners: 'signers.toml',
      koraPort: 8080,
      pubsubPort: null,
      surfnet: null,
      engine: 'litesvm',
      policy: 'strict',
      // Paths as solana-test-validator takes them, resolved against the working directory.
      programs: [
        { programId: 'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV', path: resolve('noop.so') },
        { programId: resolve('app-keypair.json'), path: '/abs/app.so', loader: 'upgradeable', upgradeAuthority: null },
        {
          programId: 'Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX',
          path: resolve('reg.so'),
          loader: 'upgradeable',
          upgradeAuthority: resolve('authority.json'),
        },
      ],
      accounts: [{ path: resolve('dump.json') }, { address: '34w7KcLBXabMkHuXE2fY368vFe6kP3v5EJn8nPvQ8SKn', path: resolve('other.json') }],
      accountDirs: [resolve('accounts'), '/more'],
      anchor: null,
      watch: false,
      genesis: null,
      clone: null,
      cluster: { genesis: 'validator' },
      sponsorCosts: null,
      acceptStateLoss: false,
      help: false,
    });
  });

  it('takes the app’s programs and accounts in solana-test-validator’s syntax, and names what a flag is missing', () => {
    expect(parseStartOptions([], { RELAY_EMULATOR_ACCOUNT_DIR: `/a${delimiter}b` }).accountDirs).toEqual(['/a', resolve('b')]);
    const refusal = (argv: string[]) => {
      try {
        parseStartOptions(argv, {});
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
    };
    expect(refusal(['--upgradeable-program', 'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV', 'noop.so'])).toBe(
      '--upgradeable-program takes ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none; UPGRADE_AUTHORITY|none is missing',
    );
    expect(refusal(['--bpf-program', 'noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV', '--port', '0'])).toBe(
      '--bpf-program takes ADDRESS_OR_KEYPAIR FILE.so; FILE.so is missing',
    );
    expect(refusal(['--account', 'dump.json'])).toBe('--account takes ADDRESS|- FILE.json; FILE.json is missing');
    expect(startUsage()).toContain('--upgradeable-program ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none');
  });

  it('takes each flag’s environment twin when the flag is absent, and the flag when both are there', () => {
    const env = {
      RELAY_EMULATOR_PORT: '9000',
      RELAY_EMULATOR_HOST: '::',
      RELAY_EMULATOR_API_KEY: 'k1, k2',
      RELAY_EMULATOR_FIXTURES: '/fx',
      RELAY_EMULATOR_STATE_FILE: '/tmp/state.json',
      RELAY_EMULATOR_STATE_INTERVAL: '30',
      RELAY_EMULATOR_TOKEN_TTL: '120',
      RELAY_EMULATOR_LOG_LEVEL: 'error',
      RELAY_EMULATOR_ADMIN_TOKEN: 'env-token',
      RELAY_EMULATOR_PUBLIC_URL: 'https://emulator.test',
      RELAY_EMULATOR_JOURNAL_LIMIT: '50',
      RELAY_EMULATOR_SLOT_TIME: '250',
      RELAY_EMULATOR_NO_RPC_AUTH: 'true',
      RELAY_EMULATOR_SKIP_PREFLIGHT: '1',
      RELAY_EMULATOR_READY_FILE: '/tmp/ready.json',
      RELAY_EMULATOR_ENGINE: 'litesvm',
      RELAY_EMULATOR_CONTROL_ORIGIN: 'http://localhost:3000, http://127.0.0.1:3000',
      RELAY_EMULATOR_POLICY: 'strict',
    };
    expect(parseStartOptions([], env)).toMatchObject({
      port: 9000,
      host: '::',
      apiKeys: ['k1', 'k2'],
      fixtures: '/fx',
      stateFile: '/tmp/state.json',
      stateIntervalMs: 30_000,
      tokenTtlSeconds: 120,
      logLevel: 'error',
      adminToken: 'env-token',
      publicUrl: 'https://emulator.test',
      journalLimit: 50,
      slotTimeMs: 250,
      rpcAuth: 'off',
      skipPreflight: true,
      readyFile: '/tmp/ready.json',
      engine: 'litesvm',
      controlOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      policy: 'strict',
    });
    expect(parseStartOptions([], { RELAY_EMULATOR_NO_RPC_AUTH: '0' }).rpcAuth).toBe('remote');
    expect(parseStartOptions(['--rpc-auth', 'always'], {}).rpcAuth).toBe('always');
    expect(parseStartOptions([], { RELAY_EMULATOR_RPC_AUTH: 'off' }).rpcAuth).toBe('off');
    expect(() => parseStartOptions(['--rpc-auth', 'sometimes'], {})).toThrow(/--rpc-auth must be one of remote, always, off, not "sometimes"/);
    expect(parseStartOptions([], { RELAY_EMULATOR_TIMING: 'validator' }).timing).toBe('validator');
    expect(() => parseStartOptions(['--timing', 'fast'], {})).toThrow('--timing must be instant or validator, not "fast"');
    expect(parseStartOptions(['--port', '1234', '--api-key', 'flag', '--engine', 'bankrun'], env)).toMatchObject({
      port: 1234,
      apiKeys: ['flag'],
      engine: 'bankrun',
    });
    expect(parseStartOptions(['--port', '1234', '--api-key', 'flag', '--policy', 'faithful'], env)).toMatchObject({
      port: 1234,
      apiKeys: ['flag'],
      policy: 'faithful',
    });
    // Every flag has a twin, and the usage text names them all.
    for (const [flag, { env: twin }] of Object.entries(START_FLAGS)) {
      expect(startUsage()).toContain(`--${flag}`);
      expect(startUsage()).toContain(twin);
    }
  });

  it('refuses what it cannot use, naming the flag', () => {
    const refusal = (argv: string[], env = {}) => {
      try {
        parseStartOptions(argv, env);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
    };
    expect(refusal(['--port', 'http'])).toMatch(/--port must be a whole number/);
    expect(refusal(['--port', '70000'])).toMatch(/--port must be between 0 and 65535/);
    expect(refusal([], { RELAY_EMULATOR_PORT: '-1' })).toMatch(/--port/);
    expect(refusal(['--log-level', 'loud'])).toMatch(/--log-level must be one of silent, error, warn, info, debug/);
    expect(refusal(['--token-ttl', '0'])).toMatch(/--token-ttl must be between 1/);
    expect(refusal(['--slot-time', '5'])).toMatch(/--slot-time must be between 10 and 3600000, not 5/);
    expect(refusal(['--slot-time', 'fast'])).toMatch(/--slot-time must be a whole number, not "fast"/);
    expect(refusal(['--public-url', 'http://host:1/api'])).toMatch(/--public-url must be an origin/);
    expect(refusal(['--api-key', ''])).toMatch(/--api-key must not be empty/);
    expect(refusal(['--engine', 'solana-test-validator'])).toMatch(/--engine must be one of bankrun, litesvm, not "solana-test-validator"/);
    expect(refusal([], { RELAY_EMULATOR_ENGINE: 'LiteSVM' })).toMatch(/--engine must be one of/);
    expect(refusal(['--control-origin', 'http://localhost:5173/app'])).toMatch(/--control-origin must be an origin/);
    expect(refusal(['--control-origin', 'null'])).toMatch(/--control-origin must be an origin/);
    expect(refusal([], { RELAY_EMULATOR_CONTROL_ORIGIN: 'file:///tmp' })).toMatch(/--control-origin must be an origin/);
    expect(refusal(['--policy', 'lenient'])).toMatch(/--policy must be faithful or strict, not "lenient"/);
    expect(refusal([], { RELAY_EMULATOR_POLICY: 'loose' })).toMatch(/--policy must be faithful or strict/);
    expect(refusal(['--bogus'])).toMatch(/bogus/);
    expect(refusal(['extra'])).toMatch(/extra/);
    expect(refusal([], { RELAY_EMULATOR_NO_RPC_AUTH: 'maybe' })).toMatch(/--no-rpc-auth's environment twin must be 1, true, 0 or false/);
  });

  it('answers a usage error with exit code 2 and --help with 0, without starting anything', async () => {
    let err = '';
    let out = '';
    expect(await runStartCommand(['--port', 'x'], { env: {}, stderr: (text) => (err += text), stdout: (text) => (out += text) })).toBe(2);
    expect(err).toBe('relay-emulator start: --port must be a whole number, not "x" (relay-emulator start --help lists the options)\n');
    expect(await runStartCommand(['--help'], { env: {}, stderr: (text) => (err += text), stdout: (text) => (out += text) })).toBe(0);
    expect(out).toContain('RELAY_EMULATOR_STATE_FILE');
  });

  it('says in one line why it cannot start, with exit code 1', async () => {
    let err = '';
    const code = await runStartCommand(['--port', '0', '--fixtures', '/nonexistent/fixtures'], {
      env: {},
      stderr: (text) => (err += text),
      stdout: () => undefined,
    });
    expect(code).toBe(1);
    expect(err).toBe('relay-emulator: cannot start: --fixtures /nonexistent/fixtures: cannot be read as a folder (ENOENT)\n');
  });
});
