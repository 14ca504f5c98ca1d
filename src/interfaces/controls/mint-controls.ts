import { initializeMint2, MINT_SIZE, TOKEN_PROGRAM_ID } from '../../domain/ledger/spl-token.ts';
import { type Keypair, SystemProgram } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { RelayError } from '../../base/errors/relay-error.ts';
import { keypairOf } from '../../domain/fixtures/load-fixtures.ts';
import type { ControlsDeps } from './controls-deps.ts';
import type { CreatedMint } from './control-types.ts';
import { runControlTransaction } from './control-transactions.ts';
import { keypairFromSeed } from '../../base/crypto/keypairs.ts';

interface MintsSnapshot {
  next: number;
  mints: CreatedMint[];
}

/** A change to the mints made, as reported to the change feed: one made (with the counter after it), or all forgotten. */
type MintsChange = { op: 'put'; next: number; mint: CreatedMint } | { op: 'clear' };

/**
 * createMint: new SPL Token mints whose mint authority is the fixture mint authority. Addresses
 * come from a counter, so a test that starts from reset() gets the same mints every run; the
 * counter and the mints made are state (part `mints`).
 */
export function mintControl(
  deps: Pick<ControlsDeps, 'ledger' | 'fixtures' | 'state' | 'changes'>,
): (request: { decimals: number; symbol?: string }) => Promise<CreatedMint> {
  const { ledger, fixtures, state } = deps;
  const report = deps.changes.reporter('mints');
  const faucetKey = keypairOf(fixtures.relay.faucet);
  const mintAuthority = keypairOf(fixtures.relay.mintAuthority);
  const mints = new Map<string, CreatedMint>();
  let nextMint = 1;

  state.register({
    name: 'mints',
    snapshot: (): MintsSnapshot => ({ next: nextMint, mints: [...mints.values()] }),
    restore: (data) => {
      const snapshot = data as MintsSnapshot;
      nextMint = snapshot.next;
      for (const mint of snapshot.mints) {
        mints.set(mint.mint, mint);
        report({ op: 'put', next: nextMint, mint } satisfies MintsChange);
      }
    },
    reset: () => {
      mints.clear();
      nextMint = 1;
      report({ op: 'clear' } satisfies MintsChange);
    },
    replay: (changes) => {
      for (const change of changes as MintsChange[]) {
        if (change.op === 'clear') {
          mints.clear();
          nextMint = 1;
        } else {
          mints.set(change.mint.mint, change.mint);
          nextMint = change.next;
        }
      }
    },
  });

  return async function createMint(request) {
    if (!Number.isInteger(request.decimals) || request.decimals < 0 || request.decimals > 18) {
      throw new RelayError('VALIDATION_FAILED', 'decimals must be an integer from 0 to 18.', {
        errors: [{ path: 'decimals', message: 'must be an integer from 0 to 18' }],
      });
    }
    let mint: Keypair;
    do mint = mintKeypair(nextMint++);
    while ((await ledger.getAccount(mint.publicKey)) !== null);
    await runControlTransaction(ledger, {
      payer: faucetKey,
      signers: [mint],
      purpose: 'mint creation',
      instructions: [
        SystemProgram.createAccount({
          fromPubkey: faucetKey.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: Number(await ledger.minimumBalanceForRentExemption(MINT_SIZE)),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        initializeMint2(mint.publicKey, request.decimals, mintAuthority.publicKey, null),
      ],
    });
    const created: CreatedMint = { mint: mint.publicKey.toBase58(), decimals: request.decimals, symbol: request.symbol ?? null };
    mints.set(created.mint, created);
    report({ op: 'put', next: nextMint, mint: created } satisfies MintsChange);
    return { ...created };
  };
}

function mintKeypair(index: number): Keypair {
  return keypairFromSeed(createHash('sha256').update(`relay-emulator:control-mint:${index}`).digest());
}
