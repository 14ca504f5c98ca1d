import { PublicKey } from '@solana/web3.js';
import type { GenesisAccount } from './engine.ts';
import { releaseBank, takeBank } from './litesvm-bank.ts';

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
export const PROGRAMS_BANKRUN_TAKES = [
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
] as const;

const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

let cached: GenesisAccount[] | null = null;

/**
 * The accounts that hold {@link PROGRAMS_BANKRUN_TAKES} on a LiteSVM bank: each program account,
 * and its program-data account when the upgradeable loader owns it. Read once per process.
 */
export function currentProgramAccounts(): GenesisAccount[] {
  if (cached) return cached;
  const svm = takeBank();
  try {
    const accounts: GenesisAccount[] = [];
    const copy = (address: PublicKey) => {
      const account = svm.getAccount(address.toBytes());
      if (!account) throw new Error(`the litesvm package ships no program at ${address.toBase58()}`);
      const owner = new PublicKey(account.owner());
      accounts.push({ address, account: { lamports: account.lamports(), owner, data: account.data(), executable: account.executable() } });
      return { owner, data: account.data() };
    };
    for (const id of PROGRAMS_BANKRUN_TAKES) {
      const program = copy(new PublicKey(id));
      // An upgradeable program's account holds the address of the account that holds its code.
      if (program.owner.toBase58() === UPGRADEABLE_LOADER) copy(new PublicKey(program.data.subarray(4, 36)));
    }
    cached = accounts;
    return accounts;
  } finally {
    releaseBank(svm, []);
  }
}
