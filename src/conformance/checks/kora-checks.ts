import { ComputeBudgetProgram, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { verifyEd25519 } from '../../base/crypto/ed25519.ts';
import { type ConformanceCheck, ensure, show } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { koraCall, koraResult } from '../kora-client.ts';
import {
  ENABLED_METHODS,
  NONCE_FLAGS,
  SYSTEM_FLAGS,
  TOKEN_FLAGS,
  TOKEN_MORE_FLAGS,
  VALIDATION_FIELDS,
  type ValidationConfig,
  allows,
  blockhash,
  config,
  isAddress,
  missing,
  target,
  unsigned,
  validationOf,
} from './kora-steps.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** Kora's checks cite docs/kora.md (Kora 2.0.4's source), not the relay's service spec. */
export const KORA_SECTION = 'kora';

export const koraChecks: Check[] = [
  {
    id: 'kora.get-config',
    section: KORA_SECTION,
    level: 'MUST',
    title: "getConfig answers fee_payers, validation_config and enabled_methods with every field Kora's SDK reads",
    async run(ctx) {
      const result = await config(ctx);
      const problems: string[] = [];
      const feePayers = result.fee_payers;
      if (!Array.isArray(feePayers) || feePayers.length === 0 || !feePayers.every(isAddress)) problems.push(`fee_payers: ${show(feePayers)}`);
      const validation = result.validation_config as ValidationConfig | undefined;
      for (const field of VALIDATION_FIELDS) if (validation?.[field] === undefined) problems.push(`validation_config.${field} is missing`);
      const policy = validation?.fee_payer_policy;
      problems.push(...missing(policy?.system, SYSTEM_FLAGS, 'fee_payer_policy.system'));
      problems.push(...missing(policy?.system?.nonce, NONCE_FLAGS, 'fee_payer_policy.system.nonce'));
      for (const program of ['spl_token', 'token_2022'] as const)
        problems.push(...missing(policy?.[program], [...TOKEN_FLAGS, ...TOKEN_MORE_FLAGS], `fee_payer_policy.${program}`));
      if (typeof validation?.price?.type !== 'string') problems.push(`validation_config.price.type: ${show(validation?.price)}`);
      problems.push(...missing(result.enabled_methods, ENABLED_METHODS, 'enabled_methods'));
      ensure(problems.length === 0, problems.join('; '));
      return `${(feePayers as unknown[]).length} fee payer(s), price ${String(validation?.price?.type)}`;
    },
  },
  {
    id: 'kora.get-payer-signer',
    section: KORA_SECTION,
    level: 'MUST',
    title: "getPayerSigner answers a signer_address among getConfig's fee_payers, and a payment_address",
    async run(ctx) {
      const feePayers = (await ctx.need(config(ctx), 'getConfig')).fee_payers as unknown[];
      const result = await koraResult(ctx.client, target(ctx), 'getPayerSigner');
      ensure(
        isAddress(result.signer_address) && feePayers.includes(result.signer_address),
        `signer_address ${show(result.signer_address)}, fee_payers ${show(feePayers)}`,
      );
      ensure(isAddress(result.payment_address), `payment_address is not an address: ${show(result.payment_address)}`);
    },
  },
  {
    id: 'kora.get-blockhash',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'getBlockhash answers a base58 blockhash',
    async run(ctx) {
      const hash = await blockhash(ctx);
      ensure(isAddress(hash), `blockhash is not 32 bytes of base58: ${show(hash)}`);
    },
  },
  {
    id: 'kora.get-supported-tokens',
    section: KORA_SECTION,
    level: 'MUST',
    title: "getSupportedTokens answers validation_config's allowed_tokens",
    async run(ctx) {
      const allowed = ((await ctx.need(config(ctx), 'getConfig')).validation_config as { allowed_tokens?: unknown }).allowed_tokens;
      const answer = await koraCall(ctx.client, target(ctx), 'getSupportedTokens');
      if (Array.isArray(allowed) && allowed.length === 0) {
        ensure(answer.error?.message === 'Internal error: No tokens provided', `no allowed tokens, yet: ${show(answer.error ?? answer.result)}`);
        return 'no allowed tokens: "No tokens provided"';
      }
      const tokens = (answer.result as { tokens?: unknown } | undefined)?.tokens;
      ensure(show(tokens) === show(allowed), `tokens ${show(tokens)}, allowed_tokens ${show(allowed)}`);
    },
  },
  {
    id: 'kora.liveness',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'GET /liveness answers a JSON-RPC result, or 405 when enabled_methods.liveness is false',
    async run(ctx) {
      const enabled = ((await ctx.need(config(ctx), 'getConfig')).enabled_methods as { liveness?: boolean }).liveness;
      const url = new URL('liveness', target(ctx).url.replace(/\/*$/, '/')).href;
      const response = await ctx.client.request({ method: 'GET', path: url, on: 'absolute', specPath: '/liveness', auth: 'none' });
      ensure(response.status === (enabled ? 200 : 405), `${response.label} with liveness ${enabled ? 'enabled' : 'disabled'}: ${show(response.text)}`);
    },
  },
  {
    id: 'kora.unknown-method',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'A method Kora does not serve is refused before JSON-RPC: HTTP 405 with an empty body',
    async run(ctx) {
      const { response } = await koraCall(ctx.client, target(ctx), 'relayEmulatorNoSuchMethod', {});
      ensure(response.status === 405 && response.text === '', `${response.label}: ${show(response.text)}`);
    },
  },
  {
    id: 'kora.auth-refused',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'With [kora.auth], no or wrong credentials are refused with HTTP 401 and an empty body',
    async run(ctx) {
      const { apiKey, hmacSecret } = target(ctx);
      if (!apiKey && !hmacSecret) {
        const { response } = await koraCall(ctx.client, target(ctx), 'getConfig', undefined, false);
        ensure(response.status === 200, `no credentials were given (--kora-api-key, --kora-hmac-secret), yet: ${response.label} ${show(response.text)}`);
        return 'no credentials given: the target answers without them (no [kora.auth])';
      }
      const wrong = { ...(apiKey ? { apiKey: `${apiKey}-wrong` } : {}), ...(hmacSecret ? { hmacSecret: `${hmacSecret}-wrong` } : {}) };
      for (const credentials of [false, wrong] as const) {
        const { response } = await koraCall(ctx.client, target(ctx), 'getConfig', undefined, credentials);
        ensure(response.status === 401 && response.text === '', `${credentials ? 'wrong' : 'no'} credentials: ${response.label} ${show(response.text)}`);
      }
    },
  },
  {
    id: 'kora.invalid-transaction',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'signTransaction of what is not a transaction is a JSON-RPC error -32000 "Invalid transaction: …"',
    async run(ctx) {
      const { response, error } = await koraCall(ctx.client, target(ctx), 'signTransaction', { transaction: 'invalid_transaction' });
      ensure(response.status === 200 && error?.code === -32000, `${response.label}: ${show(response.json ?? response.text)}`);
      ensure(typeof error.message === 'string' && error.message.startsWith('Invalid transaction: '), `message ${show(error.message)}`);
      return String(error.message);
    },
  },
  {
    id: 'kora.fee-payer-protected',
    section: KORA_SECTION,
    level: 'MUST',
    title: "signTransaction refuses a System transfer of Kora's signer's lamports: by its fee_payer_policy, else over max_allowed_lamports",
    async run(ctx) {
      const validation = await validationOf(ctx);
      if (validation.fee_payer_policy?.system?.allow_transfer === true) {
        // Allowed to transfer: then no more than max_allowed_lamports may leave it.
        const lamports = Number(validation.max_allowed_lamports) + 1;
        const away = new PublicKey(new Uint8Array(32).fill(7));
        const { base64 } = await unsigned(ctx, (feePayer) => SystemProgram.transfer({ fromPubkey: feePayer, toPubkey: away, lamports }));
        const { response, error } = await koraCall(ctx.client, target(ctx), 'signTransaction', { transaction: base64 });
        ensure(
          response.status === 200 && error?.code === -32000,
          `${lamports} lamports away were not refused: ${response.label} ${show(response.json ?? response.text)}`,
        );
        ensure(typeof error.message === 'string' && error.message.startsWith('Invalid transaction: '), `message ${show(error.message)}`);
        return String(error.message);
      }
      const { base64 } = await unsigned(ctx, (feePayer) => SystemProgram.transfer({ fromPubkey: feePayer, toPubkey: feePayer, lamports: 1 }));
      const { response, error } = await koraCall(ctx.client, target(ctx), 'signTransaction', { transaction: base64 });
      ensure(response.status === 200 && error?.code === -32000, `not refused: ${response.label} ${show(response.json ?? response.text)}`);
      const expected = allows(validation, SystemProgram.programId)
        ? "Invalid transaction: Fee payer cannot be used for 'System Transfer'"
        : `Invalid transaction: Program ${SystemProgram.programId.toBase58()} is not in the allowed list`;
      ensure(error.message === expected, `message ${show(error.message)}, expected ${show(expected)}`);
    },
  },
  {
    id: 'kora.estimate-fee',
    section: KORA_SECTION,
    level: 'MUST',
    title: 'estimateTransactionFee answers fee_in_lamports, fee_in_token, signer_pubkey and payment_address',
    async run(ctx) {
      const { feePayer, base64 } = await unsigned(ctx, () => ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }));
      const result = await koraResult(ctx.client, target(ctx), 'estimateTransactionFee', { transaction: base64 });
      ensure(Number.isSafeInteger(result.fee_in_lamports) && (result.fee_in_lamports as number) >= 0, `fee_in_lamports ${show(result.fee_in_lamports)}`);
      ensure(result.fee_in_token === null, `fee_in_token without a fee_token: ${show(result.fee_in_token)}`);
      ensure(result.signer_pubkey === feePayer.toBase58(), `signer_pubkey ${show(result.signer_pubkey)}, the transaction's fee payer ${feePayer.toBase58()}`);
      ensure(isAddress(result.payment_address), `payment_address ${show(result.payment_address)}`);
      return `${result.fee_in_lamports} lamports`;
    },
  },
  {
    id: 'kora.sign-transaction',
    section: KORA_SECTION,
    level: 'MUST',
    title: "signTransaction signs in its signer's place what its validation allows, and asks a priced one for its token payment",
    async run(ctx) {
      const validation = await validationOf(ctx);
      const budget = ComputeBudgetProgram.programId.toBase58();
      const { feePayer, transaction, base64 } = await unsigned(ctx, () => ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }));
      if (!allows(validation, ComputeBudgetProgram.programId) || validation.price?.type !== 'free') {
        const { error } = await koraCall(ctx.client, target(ctx), 'signTransaction', { transaction: base64 });
        const expected = allows(validation, ComputeBudgetProgram.programId)
          ? /^Invalid transaction: Insufficient token payment\. Required [1-9]\d* lamports$/
          : new RegExp(`^Invalid transaction: Program ${budget} is not in the allowed list$`);
        ensure(error?.code === -32000 && typeof error.message === 'string' && expected.test(error.message), `expected ${expected}, got ${show(error)}`);
        return String(error.message);
      }
      const result = await koraResult(ctx.client, target(ctx), 'signTransaction', { transaction: base64 });
      ensure(result.signer_pubkey === feePayer.toBase58(), `signer_pubkey ${show(result.signer_pubkey)}`);
      const signed = Transaction.from(Buffer.from(String(result.signed_transaction), 'base64'));
      const signature = signed.signatures.find((entry) => entry.publicKey.equals(feePayer))?.signature;
      ensure(
        signature && verifyEd25519(feePayer.toBytes(), transaction.serializeMessage(), signature),
        "the fee payer's signature does not verify over the message sent",
      );
    },
  },
];
