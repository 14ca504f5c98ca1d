import { describe, expect, it } from 'vitest';
import { readKoraToml } from './kora-toml.ts';

const BASE = [
  '[kora]',
  'rate_limit = 100',
  '[validation]',
  'max_allowed_lamports = 1000000',
  'max_signatures = 10',
  'price_source = "Mock"',
  'allowed_programs = ["11111111111111111111111111111111"]',
  'allowed_tokens = []',
  'allowed_spl_paid_tokens = "All"',
  'disallowed_accounts = []',
];
const FREE = ['[validation.price]', 'type = "free"'];
const read = (...lines: string[]) => readKoraToml([...BASE, ...lines, ...FREE].join('\n'));
const refusal = (text: string) => {
  try {
    readKoraToml(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('readKoraToml (Kora 2.0.5 config.rs)', () => {
  it('takes Kora’s defaults for what the file leaves out', () => {
    const config = read();
    expect(config.kora.enabled_methods).toEqual({
      liveness: true,
      estimate_transaction_fee: true,
      get_supported_tokens: true,
      get_payer_signer: true,
      sign_transaction: true,
      sign_and_send_transaction: true,
      transfer_transaction: true,
      get_blockhash: true,
      get_config: true,
    });
    expect(config.kora.auth).toEqual({ api_key: null, hmac_secret: null, max_timestamp_age: 300 });
    expect(config.kora.max_request_body_size).toBe(2 * 1024 * 1024);
    expect(config.validation.allowed_spl_paid_tokens).toBe('All');
    expect(config.validation.fee_payer_policy.spl_token.allow_transfer).toBe(false);
    expect(config.validation.allow_durable_transactions).toBe(false);
  });

  it('reads the fee-payer policy, the enabled methods and the payment address', () => {
    const config = read(
      '[validation.fee_payer_policy.system]',
      'allow_transfer = true',
      '[validation.fee_payer_policy.system.nonce]',
      'allow_advance = true',
      '[validation.fee_payer_policy.token_2022]',
      'allow_burn = true',
      '[kora.enabled_methods]',
      'transfer_transaction = false',
    );
    expect(config.validation.fee_payer_policy.system).toMatchObject({ allow_transfer: true, allow_assign: false, nonce: { allow_advance: true } });
    expect(config.validation.fee_payer_policy.token_2022.allow_burn).toBe(true);
    expect(config.validation.fee_payer_policy.spl_token.allow_burn).toBe(false);
    expect(config.kora.enabled_methods.transfer_transaction).toBe(false);
  });

  it('reads the price as Kora does: a margin of 0 without [validation.price], margin, fixed and free', () => {
    expect(readKoraToml(BASE.join('\n')).validation.price).toEqual({ type: 'margin', margin: 0 });
    expect(readKoraToml([...BASE, '[validation.price]', 'type = "margin"', 'margin = 0.25'].join('\n')).validation.price).toEqual({
      type: 'margin',
      margin: 0.25,
    });
    const fixed = ['[validation.price]', 'type = "fixed"', 'amount = 1500', 'token = "9BgeTKqmFsPVnfYscfM6NvsgmZxei7XfdciShQ6D3bxJ"', 'strict = true'];
    expect(readKoraToml([...BASE, ...fixed].join('\n')).validation.price).toEqual({
      type: 'fixed',
      amount: 1500,
      token: '9BgeTKqmFsPVnfYscfM6NvsgmZxei7XfdciShQ6D3bxJ',
      strict: true,
    });
  });

  it('reads [kora.usage_limit], every key required as in Kora; off without it', () => {
    expect(read().kora.usage_limit).toEqual({ enabled: false, cache_url: null, max_transactions: 0, fallback_if_unavailable: false });
    const limits = ['[kora.usage_limit]', 'enabled = true', 'cache_url = "redis://redis:6379"', 'max_transactions = 2', 'fallback_if_unavailable = false'];
    expect(readKoraToml([...BASE, ...FREE, ...limits].join('\n')).kora.usage_limit).toEqual({
      enabled: true,
      cache_url: 'redis://redis:6379',
      max_transactions: 2,
      fallback_if_unavailable: false,
    });
  });

  it('refuses, by name, what it lacks and what this emulator cannot honour', () => {
    expect(refusal('[kora]\nrate_limit = 1\n')).toMatch(/\[validation\] is missing/);
    expect(refusal([...BASE.filter((line) => !line.startsWith('max_signatures')), ...FREE].join('\n'))).toMatch(/validation\.max_signatures is missing/);
    expect(refusal([...BASE, '[validation.price]', 'type = "margin"', 'margin = -0.1'].join('\n'))).toMatch(/Margin cannot be negative/);
    // A program id that is not one: refused with the file's name, where start failed on it ("Non-base58 character").
    const notAnId = BASE.map((line) => (line.startsWith('allowed_programs') ? 'allowed_programs = ["11111111111111111111111111111111", "my-program"]' : line));
    expect(refusal([...notAnId, ...FREE].join('\n'))).toMatch(/validation\.allowed_programs: "my-program" is not an address \(32 bytes of base58\)$/);
    const listed = BASE.map((line) => (line.startsWith('allowed_spl_paid_tokens') ? 'allowed_spl_paid_tokens = []' : line));
    expect(
      refusal(
        [...listed, '[validation.price]', 'type = "fixed"', 'amount = 5', 'token = "So11111111111111111111111111111111111111112"', 'strict = false'].join('\n'),
      ),
    ).toMatch(/Token address for fixed price is not in allowed spl paid tokens: So111/);
    expect(refusal([...BASE, '[validation.price]', 'type = "fixed"', `amount = 5`].join('\n'))).toMatch(/validation\.price\.token is missing/);
    expect(refusal([...BASE, '[validation.price]', 'type = "auction"'].join('\n'))).toMatch(/"auction" is not one of margin, fixed, free/);
    expect(refusal([...BASE, ...FREE, '[validation.token_2022]', 'blocked_mint_extensions = ["memo_transfer"]'].join('\n'))).toMatch(
      /Invalid mint extension name: 'memo_transfer'\. Valid names are: \["confidential_transfer_mint",/,
    );
    expect(read('[validation.token_2022]', 'blocked_account_extensions = ["memo_transfer", "default_account_state"]').validation.token_2022).toEqual({
      blocked_mint_extensions: [],
      blocked_account_extensions: ['memo_transfer', 'default_account_state'],
    });
    expect(refusal([...BASE, ...FREE, '[kora.usage_limit]', 'enabled = true'].join('\n'))).toMatch(/kora\.usage_limit\.fallback_if_unavailable is missing/);
    expect(refusal([...BASE, ...FREE, '[kora.cache]', 'enabled = true'].join('\n'))).toMatch(/kora\.cache\.enabled cannot be honoured/);
    expect(refusal([...BASE, ...FREE, '[metrics]', 'enabled = true'].join('\n'))).toMatch(/metrics\.enabled cannot be honoured/);
    expect(refusal('not = toml = at all')).toMatch(/kora\.toml: it is not TOML \(line 1/);
    expect(() => readKoraToml('[kora]\n')).toThrow(expect.objectContaining({ code: 'KORA_CONFIG_INVALID' }));
  });
});
