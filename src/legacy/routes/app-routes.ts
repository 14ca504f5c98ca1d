import { PublicKey } from '@solana/web3.js';
import { createRequire } from 'node:module';
import { createEd25519Signer } from '../../crypto/ed25519.ts';
import { RelayError } from '../../errors/relay-error.ts';
import { keypairOf } from '../../fixtures/load-fixtures.ts';
import { jsonResponse } from '../../http/json-response.ts';
import { parseAddress } from '../../routes/address.ts';
import { ledgerFailure } from '../legacy-errors.ts';
import type { components } from '../../generated/relay.ts';
import { legacyOf } from '../legacy-service.ts';
import { buildAirdropTransaction } from '../server-transactions.ts';
import { wholeToBaseUnits } from '../token-units.ts';
import { appOf, type LegacyRoute } from './route-kit.ts';

const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };

const appConfig: LegacyRoute = {
  method: 'GET',
  path: '/app/{environment}/{index}/config',
  api: 'legacy',
  operationId: 'legacyAppConfig',
  async handle(context) {
    const { app } = appOf(context);
    return jsonResponse({
      app: { index: app.index, name: app.name },
      api: { name: 'relay-emulator', version },
      environment: { name: app.environment, explorer: app.explorer, cluster: app.cluster },
      mint: app.mints[0],
      mints: app.mints,
    });
  },
};

const appHealth: LegacyRoute = {
  method: 'GET',
  path: '/app/{environment}/{index}/health',
  api: 'legacy',
  operationId: 'legacyAppHealth',
  async handle(context) {
    appOf(context);
    return jsonResponse({ isLedgerOk: true, isLegacyOk: true, time: context.services.now().toISOString() });
  },
};

type AirdropBody = components['schemas']['LegacyAirdropRequest'];

const RELAY_COMMITMENT = { Processed: 'processed', Confirmed: 'confirmed', Finalized: 'finalized' } as const;

/**
 * Tokens of a mint that allows airdrops, minted by the mint authority (fixtures/relay.json) into the
 * account's associated token account: `amount` whole tokens (default `airdropAmount`), at most
 * `airdropMax`. Answers `{signature}` once the commitment is reached, as the legacy service did.
 */
const airdrop: LegacyRoute = {
  method: 'POST',
  path: '/airdrop',
  api: 'legacy',
  operationId: 'legacyAirdrop',
  async handle(context) {
    const { services } = context;
    const body = services.binder.body('legacyAirdrop', await context.body()) as unknown as AirdropBody;
    const legacy = legacyOf(services);
    const app = legacy.apps.get(body.environment, body.index);
    const mint = legacy.apps.mint(app, body.mint);
    if (!mint.airdrop) throw new RelayError('AIRDROP_DISABLED', `${app.key}: Airdrop configuration not found for mint ${mint.publicKey}.`);
    const owner = parseAddress(body.account, 'account');
    const requested = body.amount && Number(body.amount) > 0 ? body.amount : String(mint.airdropAmount);
    if (Number(requested) > mint.airdropMax) throw new RelayError('AIRDROP_LIMIT_EXCEEDED', `Try requesting ${mint.airdropMax} or less.`);
    const amount = wholeToBaseUnits(requested, mint.decimals, 'amount');

    const { blockhash } = await services.ledger.latestBlockhash();
    const built = buildAirdropTransaction({
      owner,
      mint: new PublicKey(mint.publicKey),
      amount,
      decimals: mint.decimals,
      feePayer: legacy.apps.signer(mint),
      mintAuthority: createEd25519Signer(keypairOf(services.fixtures.relay.mintAuthority).secretKey),
      blockhash,
    });
    const signature = await services.relay.submitSigned(built.tx, built.bytes, 'legacy');
    const landed = await services.relay.waitFor(signature, RELAY_COMMITMENT[body.commitment], app.commitmentTimeoutMs);
    if (!landed) throw new RelayError('INTERNAL_ERROR', `Airdrop ${signature} timed out: ${body.commitment} not reached within ${app.commitmentTimeoutMs} ms.`);
    if (landed.status === 'failed') throw new RelayError('INTERNAL_ERROR', `Airdrop ${signature} failed: ${ledgerFailure(landed).message}`);
    return jsonResponse({ signature }, { status: 201 });
  },
};

export const appRoutes: LegacyRoute[] = [appConfig, appHealth, airdrop];
