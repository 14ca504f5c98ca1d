import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertFetchResponseMatchesSpec } from './openapi.ts';
import { USDC } from './transactions.ts';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

export interface KoraTomlOptions {
  /** Lines of `[kora]` after `rate_limit` (`payment_address = …`, `[kora.auth]` and its keys, …). */
  kora?: string[];
  /** `allowed_programs`; default System and SPL Token. */
  programs?: string[];
  /** `allowed_tokens` and `allowed_spl_paid_tokens`; default the fixture USDC. */
  tokens?: string[];
  maxSignatures?: number;
  /** `[validation.price]`'s lines; default `type = "free"`; null leaves the table out (Kora's margin of 0). */
  price?: string[] | null;
  /** Lines of `[validation]` after its required keys (`allow_durable_transactions = true`, …). */
  validation?: string[];
  /** Tables after `[validation.price]` (`[validation.fee_payer_policy.system]`, `[kora.usage_limit]`, …). */
  tables?: string[];
}

/** A kora.toml in a temporary directory, as a team would write one (Kora 2.0.5's required keys); its path. */
export function koraToml(options: KoraTomlOptions = {}): string {
  const list = (items: string[]) => `[${items.map((item) => `"${item}"`).join(', ')}]`;
  const tokens = options.tokens ?? [USDC.toBase58()];
  const lines = [
    '[kora]',
    'rate_limit = 100',
    ...(options.kora ?? []),
    '[validation]',
    'max_allowed_lamports = 1000000',
    `max_signatures = ${options.maxSignatures ?? 10}`,
    'price_source = "Mock"',
    `allowed_programs = ${list(options.programs ?? [SYSTEM_PROGRAM, TOKEN_PROGRAM])}`,
    `allowed_tokens = ${list(tokens)}`,
    `allowed_spl_paid_tokens = ${list(tokens)}`,
    'disallowed_accounts = []',
    ...(options.validation ?? []),
    ...(options.price === null ? [] : ['[validation.price]', ...(options.price ?? ['type = "free"'])]),
    ...(options.tables ?? []),
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'relay-emulator-kora-')), 'kora.toml');
  writeFileSync(file, lines.join('\n'));
  return file;
}

export interface KoraAnswer {
  status: number;
  result?: any;
  error?: { code: number; message: string };
}

/**
 * Kora's JSON-RPC at `url` as the @solana/kora SDK calls it (`{id: 1, jsonrpc, method, params}`),
 * over real HTTP, every answer held to the contract's `/kora`; an empty (401, 405) body is `{ status }`.
 */
export function koraCaller(url: string): (method: string, params?: unknown, headers?: Record<string, string>) => Promise<KoraAnswer> {
  return async (method, params, headers = {}) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
    });
    const body = await assertFetchResponseMatchesSpec('POST', '/kora', response);
    return { status: response.status, ...(body === '' ? {} : (body as Omit<KoraAnswer, 'status'>)) };
  };
}
