import { PublicKey } from '@solana/web3.js';
import { createEd25519Signer } from '../../base/crypto/ed25519.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { keypairOf, type Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import { parseAddress } from '../../base/http/address.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import type { SubmissionWorker } from '../../domain/relay/submission-worker.ts';
import type { Commitment } from '../../domain/store/submissions.ts';
import type { LegacyApp, LegacyApps } from './legacy-apps.ts';
import { ledgerFailure } from './legacy-errors.ts';
import type { LegacyCommitment } from './legacy-records.ts';
import { buildAirdropTransaction } from './server-transactions.ts';
import { wholeToBaseUnits } from './token-units.ts';

export interface AirdropRequest {
  app: LegacyApp;
  /** The mint's address; it must be one of the app's mints, with airdrops on. */
  mint: string;
  /** The owner's address, as the client sent it (checked after the mint). */
  owner: string;
  /** Whole tokens, as the client sent them; empty, null (Kinetic's "none"), absent or not positive means the mint's `airdropAmount`. */
  amount: string | null | undefined;
  commitment: LegacyCommitment;
}

const RELAY_COMMITMENT: Record<LegacyCommitment, Commitment> = { Processed: 'processed', Confirmed: 'confirmed', Finalized: 'finalized' };

/**
 * Tokens of a mint that allows airdrops, minted by the mint authority (fixtures/relay.json) into the
 * owner's associated token account: `amount` whole tokens (default `airdropAmount`), at most
 * `airdropMax`. Resolves with the signature once the commitment is reached, as the legacy service did.
 */
export async function airdrop(
  core: { fixtures: Fixtures; ledger: Ledger; relay: AcceptPipeline; worker: SubmissionWorker },
  apps: LegacyApps,
  request: AirdropRequest,
): Promise<string> {
  const { app } = request;
  const mint = apps.mint(app, request.mint);
  if (!mint.airdrop) throw new RelayError('AIRDROP_DISABLED', `${app.key}: Airdrop configuration not found for mint ${mint.publicKey}.`);
  const owner = parseAddress(request.owner, 'account');
  const requested = request.amount && Number(request.amount) > 0 ? request.amount : String(mint.airdropAmount);
  if (Number(requested) > mint.airdropMax) throw new RelayError('AIRDROP_LIMIT_EXCEEDED', `Try requesting ${mint.airdropMax} or less.`);
  const amount = wholeToBaseUnits(requested, mint.decimals, 'amount');

  const { blockhash } = await core.ledger.latestBlockhash();
  const built = buildAirdropTransaction({
    owner,
    mint: new PublicKey(mint.publicKey),
    amount,
    decimals: mint.decimals,
    feePayer: apps.signer(mint),
    mintAuthority: createEd25519Signer(keypairOf(core.fixtures.relay.mintAuthority).secretKey),
    blockhash,
  });
  const signature = await core.relay.submitSigned(built.tx, built.bytes, 'legacy');
  const landed = await core.worker.waitFor(signature, RELAY_COMMITMENT[request.commitment], app.commitmentTimeoutMs);
  if (!landed)
    throw new RelayError('INTERNAL_ERROR', `Airdrop ${signature} timed out: ${request.commitment} not reached within ${app.commitmentTimeoutMs} ms.`);
  if (landed.status === 'failed') throw new RelayError('INTERNAL_ERROR', `Airdrop ${signature} failed: ${ledgerFailure(landed).message}`);
  return signature;
}
