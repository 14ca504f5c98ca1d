import { Keypair, PublicKey } from '@solana/web3.js';
import { show, skip } from './check.ts';
import type { ControlsDetection } from './emulator-controls.ts';
import { associatedTokenAddress, toPublicKey } from './transactions.ts';

/** What the scenarios spend from: an owner holding at least MIN_OWNER_BALANCE base units of mint in its associated token account. */
export interface Funding {
  owner: Keypair;
  mint: PublicKey;
  ownerAccount: PublicKey;
  /** Known when the mint was made here or the balance read reported it; TransferChecked is used then. */
  decimals: number | undefined;
  /** How the owner and mint were obtained, for reasons. */
  source: string;
}

/** Base units the owner must hold: the scenarios move SEND_AMOUNT (3, in checks/relay-scenario.ts) out and back. */
const MIN_OWNER_BALANCE = 3n;
/** Base units asked of the faucet when the owner holds less. */
const FAUCET_AMOUNT = 1_000_000n;

/**
 * The owner and mint of the relay scenarios: from the options, else made and funded through the
 * target's /__emulator routes (found by capability). Skips, saying why, when neither has them.
 */
/** What funding needs of a run: its options, the target's controls, balance reads (the context provides them). */
export interface FundingContext {
  options: { ownerKeypair?: Keypair; mint?: string };
  controls(): Promise<ControlsDetection>;
  tokenAmount(owner: string, mint: string, account: string): Promise<{ amount: bigint | null | undefined; note: string }>;
  decimalsOf(mint: string): number | undefined;
}

export async function resolveFunding(ctx: FundingContext): Promise<Funding> {
  const { ownerKeypair, mint: mintOption } = ctx.options;
  const needsControls = !ownerKeypair || !mintOption;
  const detection = needsControls ? await ctx.controls() : undefined;
  const controls = detection?.found ? detection.controls : undefined;
  const missing = (what: string, flag: string): never =>
    skip(`no ${what}: pass ${flag}, or run against a target with /__emulator routes (${detection && !detection.found ? detection.reason : 'none found'})`);

  let mint: PublicKey;
  let decimals: number | undefined;
  const sources: string[] = [];
  if (mintOption) {
    const key = toPublicKey(mintOption);
    if (!key) skip(`the mint option ${show(mintOption)} is not a base58 address`);
    mint = key;
    sources.push('mint from the options');
  } else {
    if (!controls) return missing('mint', '--mint (options.mint)');
    const made = await controls.createMint(6, 'CONFORMANCE');
    mint = new PublicKey(made.mint);
    decimals = made.decimals;
    sources.push('mint made by POST /__emulator/mints');
  }
  let owner: Keypair;
  if (ownerKeypair) {
    owner = ownerKeypair;
    sources.push('owner from the options');
  } else {
    if (!controls) return missing('funded owner', '--owner-keypair (options.ownerKeypair)');
    owner = Keypair.generate();
    sources.push('fresh owner');
  }
  const ownerAccount = associatedTokenAddress(owner.publicKey, mint);

  let held = await ctx.tokenAmount(owner.publicKey.toBase58(), mint.toBase58(), ownerAccount.toBase58());
  if ((held.amount ?? 0n) < MIN_OWNER_BALANCE && controls) {
    const funded = await controls.fundTokens(owner.publicKey.toBase58(), mint.toBase58(), FAUCET_AMOUNT);
    sources.push('funded by POST /__emulator/faucet');
    held =
      funded.tokenAmount !== null && /^\d+$/.test(funded.tokenAmount)
        ? { amount: BigInt(funded.tokenAmount), note: 'faucet' }
        : await ctx.tokenAmount(owner.publicKey.toBase58(), mint.toBase58(), ownerAccount.toBase58());
  }
  if (held.amount === undefined) skip(`cannot read the owner's balance: ${held.note}`);
  if ((held.amount ?? 0n) < MIN_OWNER_BALANCE) {
    skip(
      `the owner ${owner.publicKey.toBase58()} holds ${held.amount ?? 0n} base units of ${mint.toBase58()} in ${ownerAccount.toBase58()}; the ` +
        `scenarios need ${MIN_OWNER_BALANCE}`,
    );
  }
  decimals ??= ctx.decimalsOf(mint.toBase58());
  return { owner, mint, ownerAccount, decimals, source: sources.join(', ') };
}
