/**
 * Legacy-client helpers: transactions as the legacy SDK builds them (app-index memo, TransferChecked,
 * ATA creation followed by SetAuthority(CloseAccount → fee payer)), and test apps for fixtures.
 */
import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { loadFixtures, type Fixtures } from '../../src/domain/fixtures/load-fixtures.ts';
import type { AppsFile } from '../../src/interfaces/legacy/legacy-apps.ts';
import { appMemoInstruction } from '../../src/interfaces/legacy/server-transactions.ts';
import { ata, build, createAtaInstructions, KIN, transferInstruction } from './transactions.ts';

export const DEFAULT_APPS = loadFixtures().extra.apps as AppsFile;

/** The repository's fixtures with extra legacy apps after the default ones. */
export function fixturesWithApps(apps: AppsFile): Fixtures {
  return { ...loadFixtures(), extra: { apps: [...DEFAULT_APPS, ...apps] } };
}

/** An app like the default one (KIN with addMemo, then USDC) at another environment/index. */
export function testApp(environment: string, index: number, extra: Partial<AppsFile[number]> = {}): AppsFile[number] {
  return { ...DEFAULT_APPS[0]!, environment, index, name: `${environment} app`, ...extra };
}

export interface LegacyTransfer {
  from: Keypair;
  to: PublicKey;
  amount: bigint;
  mint?: PublicKey;
  decimals?: number;
  /** Create the destination's ATA first (with the close authority handed to the fee payer); the recipient must then sign. */
  create?: Keypair;
}

/** A make-transfer transaction as the legacy SDK builds it, base64. */
export function legacyTransfer(options: { blockhash: string; transfers: LegacyTransfer[]; memoIndex?: number; signers?: Keypair[] }): string {
  const instructions: TransactionInstruction[] = [];
  if (options.memoIndex !== undefined) instructions.push(appMemoInstruction(options.memoIndex));
  const signers = new Map<string, Keypair>();
  for (const transfer of options.transfers) {
    const mint = transfer.mint ?? KIN;
    if (transfer.create) {
      instructions.push(...createAtaInstructions(transfer.create.publicKey, mint));
      signers.set(transfer.create.publicKey.toBase58(), transfer.create);
    }
    instructions.push(
      transferInstruction(transfer.from, transfer.to, transfer.amount, { checked: true, mint, decimals: transfer.decimals ?? (mint.equals(KIN) ? 5 : 6) }),
    );
    signers.set(transfer.from.publicKey.toBase58(), transfer.from);
  }
  return build({ instructions, blockhash: options.blockhash, signers: [...signers.values(), ...(options.signers ?? [])] });
}

/** An account/create transaction as the legacy SDK builds it, base64. */
export function legacyCreate(options: { blockhash: string; owner: Keypair; mint?: PublicKey; memoIndex?: number }): string {
  const instructions: TransactionInstruction[] = [];
  if (options.memoIndex !== undefined) instructions.push(appMemoInstruction(options.memoIndex));
  instructions.push(...createAtaInstructions(options.owner.publicKey, options.mint ?? KIN));
  return build({ instructions, blockhash: options.blockhash, signers: [options.owner] });
}

export { ata };
