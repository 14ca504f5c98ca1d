import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../domain/fixtures/load-fixtures.ts';
import { LegacyApps } from './legacy-apps.ts';

const fixtures = loadFixtures();
const WHERE = { rpcUrl: 'http://127.0.0.1:8787/rpc', origin: 'http://127.0.0.1:8787' };
const KIN = fixtures.mints.find((mint) => mint.symbol === 'KIN')!;
const withApps = (apps: unknown) => new LegacyApps({ ...fixtures, extra: { apps } }, WHERE);

describe('LegacyApps', () => {
  it('loads fixtures/apps.json with every mint field of spec 2.6', () => {
    const apps = new LegacyApps(fixtures, WHERE);
    const app = apps.get('devnet', 1);
    expect(app.key).toBe('app-1-devnet');
    expect(app.cluster.endpoint).toBe('http://127.0.0.1:8787/rpc');
    expect(Object.keys(app.mints[0]!).sort()).toEqual([
      'addMemo',
      'airdrop',
      'airdropAmount',
      'airdropMax',
      'decimals',
      'feePayer',
      'logoUrl',
      'name',
      'programId',
      'publicKey',
      'symbol',
    ]);
    expect(apps.signer(app.mints[0]!).publicKey).toEqual(bs58.decode(fixtures.relay.feePayer.publicKey));
  });

  it('fills the explorer template with where the emulator serves, whatever its port', () => {
    const where = { rpcUrl: 'http://10.0.2.2:40123/rpc', origin: 'http://10.0.2.2:40123' };
    const apps = new LegacyApps(fixtures, where);
    expect(apps.get('devnet', 1).explorer).toBe('http://10.0.2.2:40123/{path}');
    const custom = new LegacyApps(
      {
        ...fixtures,
        extra: {
          apps: [
            {
              environment: 'e',
              index: 1,
              name: 'n',
              explorer: 'https://explorer.solana.com/{path}?cluster=custom&customUrl={rpcUrl}',
              mints: [{ publicKey: KIN.address }],
            },
          ],
        },
      },
      where,
    );
    expect(custom.get('e', 1).explorer).toBe('https://explorer.solana.com/{path}?cluster=custom&customUrl=http%3A%2F%2F10.0.2.2%3A40123%2Frpc');
    const unnamed = new LegacyApps({ ...fixtures, extra: { apps: [{ environment: 'e', index: 1, name: 'n', mints: [{ publicKey: KIN.address }] }] } }, where);
    expect(unnamed.get('e', 1).explorer).toBe(apps.get('devnet', 1).explorer);
  });

  it('fills a mint from mints.json and the relay fee payer from relay.json', () => {
    const app = withApps([{ environment: 'e', index: 3, name: 'n', mints: [{ publicKey: KIN.address }] }]).get('e', 3);
    expect(app.mints[0]).toEqual({
      addMemo: false,
      airdrop: false,
      airdropAmount: 0,
      airdropMax: 0,
      decimals: 5,
      feePayer: fixtures.relay.feePayer.publicKey,
      logoUrl: KIN.logoUrl,
      name: KIN.name,
      programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      publicKey: KIN.address,
      symbol: 'KIN',
    });
    expect(app).toMatchObject({ webhooks: { verify: null, event: null }, ipsAllowed: [], commitmentTimeoutMs: 60_000, cluster: { type: 'Custom' } });
  });

  it('holds the key of a fee payer given with its secret key, as an app wallet', () => {
    const wallet = Keypair.generate();
    const apps = withApps([
      {
        environment: 'e',
        index: 1,
        name: 'n',
        mints: [{ publicKey: KIN.address, feePayer: wallet.publicKey.toBase58(), feePayerSecretKey: bs58.encode(wallet.secretKey) }],
      },
    ]);
    const app = apps.get('e', 1);
    expect(apps.signer(app.mints[0]!).publicKey).toEqual(wallet.publicKey.toBytes());
    expect(apps.walletSigner(app, wallet.publicKey.toBase58())).not.toBeNull();
    expect(apps.walletSigner(app, fixtures.relay.feePayer.publicKey)).toBeNull();
  });

  it('refuses invalid files at start-up, naming the problem', () => {
    const mint = { publicKey: KIN.address };
    expect(() => withApps([{ environment: 'e', index: 1, name: 'n', mints: [] }])).toThrow(/apps\.json is invalid/);
    expect(() => withApps([{ environment: 'e', index: -1, name: 'n', mints: [mint] }])).toThrow(/apps\.json is invalid/);
    expect(() =>
      withApps([
        { environment: 'e', index: 1, name: 'n', mints: [mint] },
        { environment: 'e', index: 1, name: 'm', mints: [mint] },
      ]),
    ).toThrow(/defines app-1-e twice/);
    expect(() => withApps([{ environment: 'e', index: 1, name: 'n', mints: [{ publicKey: Keypair.generate().publicKey.toBase58() }] }])).toThrow(
      /needs decimals/,
    );
    expect(() => withApps([{ environment: 'e', index: 1, name: 'n', mints: [{ ...mint, decimals: 6 }] }])).toThrow(/mints\.json says 5/);
    expect(() => withApps([{ environment: 'e', index: 1, name: 'n', mints: [{ ...mint, feePayer: Keypair.generate().publicKey.toBase58() }] }])).toThrow(
      /without feePayerSecretKey/,
    );
    const other = Keypair.generate();
    expect(() =>
      withApps([
        {
          environment: 'e',
          index: 1,
          name: 'n',
          mints: [{ ...mint, feePayer: Keypair.generate().publicKey.toBase58(), feePayerSecretKey: bs58.encode(other.secretKey) }],
        },
      ]),
    ).toThrow(/is not the secret key/);
  });

  it('answers 404 for an unknown app and 400 naming a mint the app does not have', () => {
    const apps = withApps([{ environment: 'e', index: 1, name: 'n', mints: [{ publicKey: KIN.address }] }]);
    expect(() => apps.get('e', 2)).toThrow(expect.objectContaining({ code: 'APP_NOT_FOUND', message: 'app-2-e: App not found.' }));
    expect(() => apps.mint(apps.get('e', 1), 'Other1111')).toThrow(
      expect.objectContaining({ code: 'MINT_NOT_IN_APP', message: "app-1-e: Can't find mint Other1111" }),
    );
  });
});
