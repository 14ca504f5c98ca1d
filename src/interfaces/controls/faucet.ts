import { associatedTokenAddress, createAssociatedTokenAccount, mintTo } from '../../domain/ledger/spl-token.ts';
import { SystemProgram } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import { keypairOf } from '../../domain/fixtures/load-fixtures.ts';
import { decodeMint, decodeTokenAccount } from '../../domain/ledger/token-accounts.ts';
import type { ControlsDeps } from './controls-deps.ts';
import { parseAddress } from '../../domain/ledger/account-state.ts';
import type { FaucetRequest, FaucetResult } from './control-types.ts';
import { runControlTransaction } from './control-transactions.ts';
import { writeAccounts } from './ledger-controls.ts';

/** Lamports the faucet gives when asked for nothing in particular: 1 SOL. */
export const DEFAULT_FAUCET_LAMPORTS = 1_000_000_000n;

/**
 * The faucet: SOL credited directly from the faucet fixture key, and/or tokens of a mint whose
 * mint authority is the fixture mint authority, minted by a real MintTo into the owner's
 * associated token account.
 */
export function faucetControl(deps: Pick<ControlsDeps, 'ledger' | 'tokenAccounts' | 'fixtures'>): (request: FaucetRequest) => Promise<FaucetResult> {
  const { ledger, tokenAccounts, fixtures } = deps;
  const faucetKey = keypairOf(fixtures.relay.faucet);
  const mintAuthority = keypairOf(fixtures.relay.mintAuthority);

  return async function faucet(request) {
    const address = parseAddress(request.address);
    const mint = request.mint === undefined ? null : parseAddress(request.mint, 'mint');
    const lamports = toBigInt(request.lamports ?? (mint === null ? DEFAULT_FAUCET_LAMPORTS : 0n), 'lamports');
    const amount = toBigInt(request.amount ?? 0n, 'amount');
    if (mint === null && request.amount !== undefined)
      throw new RelayError('VALIDATION_FAILED', 'amount needs a mint.', { errors: [{ path: 'mint', message: 'is required with amount' }] });

    let tokenAccount: string | null = null;
    let tokenAmount: bigint | null = null;
    if (mint !== null) {
      const mintAccount = await ledger.getAccount(mint);
      const state = decodeMint(mintAccount);
      if (!mintAccount || !state) throw new RelayError('MINT_NOT_FOUND', `${mint.toBase58()} is not a mint on the ledger.`);
      if (state.mintAuthority !== mintAuthority.publicKey.toBase58()) {
        throw new RelayError(
          'MINT_NOT_FOUND',
          `The emulator cannot mint ${mint.toBase58()}: its mint authority is ${state.mintAuthority ?? 'none'}, not the fixture mint authority.`,
        );
      }
      const programId = mintAccount.owner;
      const ata = associatedTokenAddress(mint, address, programId);
      const instructions = [createAssociatedTokenAccount(faucetKey.publicKey, ata, address, mint, { programId, idempotent: true })];
      if (amount > 0n) instructions.push(mintTo(mint, ata, mintAuthority.publicKey, amount, { programId }));
      // Filed in the ledger's commit: the account is never on the ledger without its owner knowing it.
      const onLanded = () => tokenAccounts.add(address.toBase58(), ata.toBase58());
      await runControlTransaction(ledger, { payer: faucetKey, signers: [mintAuthority], instructions, purpose: 'faucet', onLanded });
      tokenAccount = ata.toBase58();
      tokenAmount = decodeTokenAccount(await ledger.getAccount(ata))?.amount ?? 0n;
    }

    // SOL is credited directly from the faucet key's balance: no transaction, no fee, nothing in history.
    if (lamports > 0n) {
      await writeAccounts(ledger, [
        {
          address,
          account: (current) =>
            current
              ? { ...current, lamports: current.lamports + lamports }
              : { lamports, owner: SystemProgram.programId, data: new Uint8Array(), executable: false },
        },
      ]);
    }
    return { address: address.toBase58(), lamports: (await ledger.getAccount(address))?.lamports ?? 0n, tokenAccount, tokenAmount };
  };
}

function toBigInt(value: bigint | number | string, field: string): bigint {
  const integral = typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string' ? /^[0-9]+$/.test(value) : true;
  if (!integral) {
    throw new RelayError('VALIDATION_FAILED', `${field} must be a non-negative integer.`, {
      errors: [{ path: field, message: 'must be a non-negative integer' }],
    });
  }
  const result = BigInt(value);
  if (result < 0n || result > 0xffff_ffff_ffff_ffffn) {
    throw new RelayError('VALIDATION_FAILED', `${field} must be between 0 and 2^64-1.`, { errors: [{ path: field, message: 'must fit in a u64' }] });
  }
  return result;
}
