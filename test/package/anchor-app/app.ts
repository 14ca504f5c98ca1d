// An Anchor 0.32 app's TypeScript beside relay-emulator (checked by tsc, issue 45 item 19): the
// relay's fee payer from relay-emulator's fixtures is a Keypair that Anchor's Wallet takes, and a
// Connection reaches AnchorProvider and Program. Two copies of web3.js (an exact pin beside Anchor's
// range) made these TS2322/TS2345 errors.
import { AnchorProvider, type Idl, Program, Wallet } from '@coral-xyz/anchor';
import { Connection, type PublicKey } from '@solana/web3.js';
import { createRelayEmulator, keypairOf, loadFixtures } from 'relay-emulator';

const emulator = await createRelayEmulator();
const wallet = new Wallet(keypairOf(loadFixtures().relay.feePayer));
const provider = new AnchorProvider(new Connection(emulator.config.rpcUrl), wallet, {});
export const program = (idl: Idl): Program => new Program(idl, provider);
export const programId: PublicKey = wallet.publicKey;
