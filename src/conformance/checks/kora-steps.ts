import { PublicKey, Transaction } from '@solana/web3.js';
import { skip } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { koraResult } from '../kora-client.ts';
import { toPublicKey } from '../transactions.ts';
import type { KoraTarget } from '../types.ts';

/* The Kora checks' shared steps: the target, its getConfig, signer and blockhash (each asked once a run), and unsigned transactions. */

/** The fields of getConfig the @solana/kora SDK reads (its integration suite checks each one). */
export const VALIDATION_FIELDS = ['allowed_programs', 'allowed_tokens', 'max_allowed_lamports', 'max_signatures', 'price_source', 'price', 'fee_payer_policy'];
export const SYSTEM_FLAGS = ['allow_transfer', 'allow_assign', 'allow_create_account', 'allow_allocate'];
export const NONCE_FLAGS = ['allow_initialize', 'allow_advance', 'allow_authorize', 'allow_withdraw'];
export const TOKEN_FLAGS = ['allow_transfer', 'allow_burn', 'allow_close_account', 'allow_approve', 'allow_revoke', 'allow_set_authority', 'allow_mint_to'];
export const TOKEN_MORE_FLAGS = ['allow_freeze_account', 'allow_thaw_account'];
export const ENABLED_METHODS = [
  'liveness',
  'estimate_transaction_fee',
  'get_supported_tokens',
  'sign_transaction',
  'sign_and_send_transaction',
  'transfer_transaction',
  'get_blockhash',
  'get_config',
];

export const target = (ctx: ConformanceContext): KoraTarget => ctx.options.kora ?? skip('no Kora URL given (--kora-url)');
export const config = (ctx: ConformanceContext) => ctx.step('kora-config', () => koraResult(ctx.client, target(ctx), 'getConfig'));
export const signer = async (ctx: ConformanceContext) => {
  const result = await ctx.need(
    ctx.step('kora-signer', () => koraResult(ctx.client, target(ctx), 'getPayerSigner')),
    'getPayerSigner',
  );
  return new PublicKey(result.signer_address as string);
};
export const blockhash = async (ctx: ConformanceContext) =>
  (
    await ctx.need(
      ctx.step('kora-blockhash', () => koraResult(ctx.client, target(ctx), 'getBlockhash')),
      'getBlockhash',
    )
  ).blockhash as string;

/** A transaction only Kora's signer signs, with one instruction, base64 and unsigned. */
export async function unsigned(ctx: ConformanceContext, instruction: (feePayer: PublicKey) => Parameters<Transaction['add']>[0]) {
  const feePayer = await signer(ctx);
  const transaction = new Transaction({ feePayer, recentBlockhash: await blockhash(ctx) }).add(instruction(feePayer));
  return { feePayer, transaction, base64: transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64') };
}

/** getConfig's validation_config, as far as these checks read it (each field checked before it is trusted). */
export interface ValidationConfig {
  allowed_programs?: unknown[];
  max_allowed_lamports?: unknown;
  price?: { type?: unknown };
  fee_payer_policy?: { system?: { allow_transfer?: unknown; nonce?: unknown }; spl_token?: unknown; token_2022?: unknown };
  [field: string]: unknown;
}
export const validationOf = async (ctx: ConformanceContext) => ((await ctx.need(config(ctx), 'getConfig')).validation_config ?? {}) as ValidationConfig;
export const allows = (validation: ValidationConfig, program: PublicKey) => (validation.allowed_programs ?? []).includes(program.toBase58());

export const isAddress = (value: unknown) => typeof value === 'string' && toPublicKey(value) !== undefined;
export const missing = (object: unknown, keys: string[], where: string) =>
  keys.filter((key) => typeof (object as Record<string, unknown> | undefined)?.[key] !== 'boolean').map((key) => `${where}.${key}`);
