import { PublicKey } from '@solana/web3.js';
import type { GenesisAccount } from './engine.ts';
import { newBank } from './litesvm-bank.ts';
import { BPF_LOADER_2, readProgramData, UPGRADEABLE_LOADER } from './program-accounts.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

/**
 * The program builds mainnet runs today, as the litesvm package ships them (docs/programs.md lists
 * each one's version, sha256 and origin). LiteSVM loads them itself; the bankrun engine takes them
 * from here and loads them over the 2024 builds solana-program-test 1.18 bundles, so that both
 * engines run the same Token-2022, Associated Token Account and Memo programs.
 *
 * SPL Token is not among them: mainnet's is p-token (SIMD-0266), whose build bankrun's VM (agave
 * 1.18) refuses at its first instruction ("unsupported BPF instruction"), so bankrun keeps its own
 * SPL Token 3.5.0 (measured; docs/programs.md).
 */
const PROGRAMS_BANKRUN_TAKES = [
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
] as const;

let cached: GenesisAccount[] | null = null;

/**
 * {@link PROGRAMS_BANKRUN_TAKES} as accounts bankrun can load: each program's code, as the
 * LiteSVM bank holds it, in one executable account of BPF loader 2. An upgradeable program
 * (Token-2022) is loaded so too, its code taken out of its program-data account: bankrun's cache
 * (agave 1.18) waits for ever on a program whose program data says it was deployed at a slot
 * after its own (mainnet's, ~447 million), and hangs the engine. Read once per process, from a
 * bank of its own: never one of the pool's, which an engine used (litesvm-bank.ts), so nothing an
 * earlier emulator of the process ran can reach the programs every bankrun emulator loads.
 */
export function currentProgramAccounts(): GenesisAccount[] {
  if (cached) return cached;
  const svm = newBank();
  const accounts: GenesisAccount[] = [];
  const read = (address: PublicKey) => {
    const account = svm.getAccount(address.toBytes());
    if (!account) throw new InternalError('PROGRAM_MISSING', { address: address.toBase58() });
    return { lamports: account.lamports(), owner: new PublicKey(account.owner()), data: account.data(), executable: account.executable() };
  };
  for (const id of PROGRAMS_BANKRUN_TAKES) {
    const address = new PublicKey(id);
    const program = read(address);
    if (program.owner.equals(UPGRADEABLE_LOADER)) {
      // The program account holds the address of its program-data account, which holds the ELF (program-accounts.ts).
      const programData = read(new PublicKey(program.data.subarray(4, 36)));
      const { elf } = readProgramData(programData) ?? {};
      if (!elf) throw new InternalError('PROGRAM_MISSING', { address: address.toBase58() });
      accounts.push({ address, account: { ...programData, owner: BPF_LOADER_2, data: elf, executable: true } });
    } else {
      accounts.push({ address, account: program });
    }
  }
  cached = accounts;
  return accounts;
}
