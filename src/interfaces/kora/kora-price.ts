/**
 * Kora 2.0.5's price arithmetic (crates/lib/src/token/token.rs, fee/price.rs, oracle/utils.rs) in
 * exact fractions, as Kora's rust_decimal gives them for these magnitudes: token amounts to lamports
 * rounded down, lamports to token amounts rounded up, the margin rounded up.
 */

/** A price in SOL per whole token, as a fraction. */
export interface Price {
  numerator: bigint;
  denominator: bigint;
}

const LAMPORTS_PER_SOL = 1_000_000_000n;
/** oracle/utils.rs: the devnet USDC mint and wrapped SOL have their own mocked prices. */
const USDC_DEVNET_MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const WSOL_MINT = 'So11111111111111111111111111111111111111112';

/** `price_source = "Mock"` (OracleUtil::get_mock_oracle_price): 0.0001 SOL for devnet USDC, 1 for wSOL, 0.001 for any other mint. */
export function mockPrice(mint: string): Price {
  if (mint === USDC_DEVNET_MINT) return { numerator: 1n, denominator: 10_000n };
  if (mint === WSOL_MINT) return { numerator: 1n, denominator: 1n };
  return { numerator: 1n, denominator: 1_000n };
}

/** calculate_token_value_in_lamports: amount × price × 10⁹ / 10^decimals, rounded down. */
export function tokenToLamports(amount: bigint, decimals: number, price: Price): bigint {
  return (amount * price.numerator * LAMPORTS_PER_SOL) / (price.denominator * 10n ** BigInt(decimals));
}

/** calculate_lamports_value_in_token: lamports × 10^decimals / (10⁹ × price), rounded up. */
export function lamportsToToken(lamports: bigint, decimals: number, price: Price): bigint {
  return ceilDiv(lamports * 10n ** BigInt(decimals) * price.denominator, LAMPORTS_PER_SOL * price.numerator);
}

/** get_required_lamports_with_margin: fee × (1 + margin), rounded up; the margin as Decimal::from_f64 reads it (its shortest decimal). */
export function withMargin(lamports: bigint, margin: number): bigint {
  const { numerator, denominator } = decimalFraction(margin);
  return ceilDiv(lamports * (denominator + numerator), denominator);
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/** A finite number's shortest decimal form as a fraction (0.1 → 1/10; 1e-7 → 1/10000000). */
function decimalFraction(value: number): Price {
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const [whole, fraction = ''] = mantissa.split('.') as [string, string?];
  const digits = BigInt(`${whole}${fraction}`);
  const exponent = Number(exponentText) - fraction.length;
  return exponent >= 0 ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n } : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}
