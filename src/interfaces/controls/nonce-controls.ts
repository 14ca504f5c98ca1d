import { createHash } from 'node:crypto';
import { type Keypair, NONCE_ACCOUNT_LENGTH, type PublicKey, SystemProgram } from '@solana/web3.js';
import { keypairOf } from '../../domain/fixtures/load-fixtures.ts';
import { nonceStateOf } from '../../domain/ledger/durable-nonce.ts';
import { parseAddress } from '../../domain/ledger/account-state.ts';
import type { ControlsDeps } from './controls-deps.ts';
import type { CreatedNonceAccount } from './control-types.ts';
import { runControlTransaction } from './control-transactions.ts';
import { keypairFromSeed } from '../../base/crypto/keypairs.ts';

/**
 * createNonceAccount: a durable-nonce account for a test, made as `SystemProgram.createNonceAccount`
 * makes one (CreateAccount and InitializeNonceAccount, paid by the faucet fixture key), with
 * `authority` as its nonce authority. Then the ledger opens the next slot: a nonce stored in a
 * slot cannot be advanced in it (the System Program's NonceBlockhashNotExpired), and a test wants
 * to use it at once. Addresses come from a counter (the first free one), so a test that starts from
 * reset() gets the same accounts every run.
 */
export function nonceControl(deps: Pick<ControlsDeps, 'ledger' | 'fixtures'>): (request: { authority: string | PublicKey }) => Promise<CreatedNonceAccount> {
  const { ledger, fixtures } = deps;
  const faucetKey = keypairOf(fixtures.relay.faucet);
  let next = 1;
  return async function createNonceAccount(request) {
    const authority = parseAddress(request.authority, 'authority');
    let nonce: Keypair;
    do nonce = nonceKeypair(next++);
    while ((await ledger.getAccount(nonce.publicKey)) !== null);
    const lamports = await ledger.minimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH);
    await runControlTransaction(ledger, {
      payer: faucetKey,
      signers: [nonce],
      purpose: 'nonce account creation',
      instructions: SystemProgram.createNonceAccount({
        fromPubkey: faucetKey.publicKey,
        noncePubkey: nonce.publicKey,
        authorizedPubkey: authority,
        lamports: Number(lamports),
      }).instructions,
    });
    await ledger.warp({ slots: 1 });
    const state = nonceStateOf(await ledger.getAccount(nonce.publicKey))!;
    return { address: nonce.publicKey.toBase58(), authority: authority.toBase58(), nonce: state.nonce, lamports: lamports.toString() };
  };
}

function nonceKeypair(index: number): Keypair {
  return keypairFromSeed(createHash('sha256').update(`relay-emulator:control-nonce:${index}`).digest());
}
