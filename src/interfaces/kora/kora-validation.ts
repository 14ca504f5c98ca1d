import { invalidTransaction } from './kora-error.ts';
import { type FeeScope, feePayerOutflow } from './kora-fee.ts';
import { type KoraParsed, type KoraTransaction, parseForKora } from './kora-instructions.ts';

/**
 * The order Kora's validator checks the fee payer's roles in (validate_fee_payer_usage): by kind,
 * System first, then SPL Token and Token-2022 together; the first kind found refuses.
 */
const ROLE_ORDER = [
  'System Transfer',
  'System Assign',
  'System Allocate',
  'System Create Account',
  'System Initialize Nonce Account',
  'System Advance Nonce Account',
  'System Authorize Nonce Account',
  'System Withdraw Nonce Account',
  ...[
    'Transfer',
    'Approve',
    'Burn',
    'CloseAccount',
    'Revoke',
    'SetAuthority',
    'MintTo',
    'InitializeMint',
    'InitializeAccount',
    'InitializeMultisig',
    'FreezeAccount',
    'ThawAccount',
  ].flatMap((kind) => [`SPL Token ${kind}`, `Token2022 Token ${kind}`]),
];

/**
 * Kora 2.0.5's `validate_transaction`, in its order and with its words (all InvalidTransaction):
 * instructions and keys present, the signature count, every program allowed, the fee payer's SOL
 * outflow within `max_allowed_lamports`, no disallowed program or account, no durable nonce unless
 * allowed, and the fee payer in no role its `fee_payer_policy` does not allow. Resolves with the
 * fee payer's outflow it checked, for the fee and the sponsor exposure.
 */
export async function validateForKora(transaction: KoraTransaction, scope: FeeScope): Promise<bigint> {
  const { tx, instructions } = transaction;
  const { validation: config, feePayer } = scope;
  if (instructions.length === 0) throw invalidTransaction('Transaction contains no instructions');
  if (transaction.accountKeys.length === 0) throw invalidTransaction('Transaction contains no account keys');
  if (tx.signatures.length > config.max_signatures)
    throw invalidTransaction(`Too many signatures: ${tx.signatures.length} > ${config.max_signatures}`, 'validation.max_signatures');
  if (tx.signatures.length === 0) throw invalidTransaction('No signatures found');
  for (const instruction of instructions) {
    if (!config.allowed_programs.includes(instruction.program))
      throw invalidTransaction(`Program ${instruction.program} is not in the allowed list`, 'validation.allowed_programs');
  }
  const parsed = instructions.map(parseForKora).filter((item): item is KoraParsed => item !== null);
  const outflow = await feePayerOutflow(scope, transaction);
  if (outflow > BigInt(config.max_allowed_lamports)) {
    throw invalidTransaction(`Total transfer amount ${outflow} exceeds maximum allowed ${config.max_allowed_lamports}`, 'validation.max_allowed_lamports');
  }
  for (const instruction of instructions) {
    if (config.disallowed_accounts.includes(instruction.program))
      throw invalidTransaction(`Program ${instruction.program} is disallowed`, 'validation.disallowed_accounts');
    const account = instruction.accounts.find((key) => config.disallowed_accounts.includes(key));
    if (account !== undefined) throw invalidTransaction(`Account ${account} is disallowed`, 'validation.disallowed_accounts');
  }
  if (!config.allow_durable_transactions && parsed.some((item) => item.name === 'System Advance Nonce Account')) {
    throw invalidTransaction('Durable transactions (nonce-based) are not allowed', 'validation.allow_durable_transactions');
  }
  const policy = config.fee_payer_policy;
  for (const name of ROLE_ORDER) {
    for (const item of parsed) {
      if (item.name !== name || !item.authorities.includes(feePayer)) continue;
      const flags = (item.policy.family === 'nonce' ? policy.system.nonce : policy[item.policy.family]) as unknown as Record<string, boolean>;
      if (flags[item.policy.flag]) continue;
      const family = item.policy.family === 'nonce' ? 'system.nonce' : item.policy.family;
      throw invalidTransaction(`Fee payer cannot be used for '${name}'`, `validation.fee_payer_policy.${family}.${item.policy.flag}`);
    }
  }
  return outflow;
}
