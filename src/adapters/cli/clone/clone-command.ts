import { relative, resolve } from 'node:path';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { parseArgs } from 'node:util';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import { decodeBase58 } from '../../../base/crypto/base58.ts';
import { lookAt } from '../../../base/disk/look.ts';
import { OwnedFolder } from '../../../base/disk/owned-folder.ts';
import { cloneFolderKind, readCloneManifest, writeClones } from '../../../domain/fixtures/clone-cache.ts';
import { type CloneRequest, fetchClones } from '../../../domain/fixtures/clone-fetch.ts';
import { clusterUrl } from '../../../domain/fixtures/cluster-url.ts';

const USAGE = `Usage: relay-emulator clone --url URL --out DIR [options] ADDRESS...

Fetches accounts of a cluster once and writes them to DIR as the Solana CLI dumps them, one
<address>.json each, with manifest.json (the URL, and each account's slot, time and what asked for
it). Load them back with --account-dir DIR; commit DIR as fixtures, and run this again to refresh.

  -u, --url URL_OR_MONIKER            the cluster: a URL, or mainnet-beta, devnet, testnet, localhost (m, d, t, l)
  -o, --out DIR                       the folder to write
  ADDRESS...                          accounts to clone; each must exist
  --maybe ADDRESS                     an account that may be missing (a warning); repeatable
  --upgradeable-program ADDRESS       a program and its program data, deploy slot set to 0; repeatable
  --lookup-table ADDRESS              a lookup table and every address it lists; repeatable
`;

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const CLONE_OPTIONS = {
  url: { type: 'string', short: 'u' },
  out: { type: 'string', short: 'o' },
  maybe: { type: 'string', multiple: true },
  'upgradeable-program': { type: 'string', multiple: true },
  'lookup-table': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `relay-emulator clone`: resolves with the exit code. */
export async function runCloneCommand(argv: string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): Promise<number> {
  let values: Record<string, string | string[] | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: CLONE_OPTIONS,
    }));
  } catch (error) {
    io.stderr(`relay-emulator clone: ${parseArgsMessage(error)} (relay-emulator clone --help)\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const list = (name: string) => (values[name] as string[] | undefined) ?? [];
  const request: CloneRequest = {
    accounts: positionals,
    maybe: list('maybe'),
    upgradeablePrograms: list('upgradeable-program'),
    lookupTables: list('lookup-table'),
  };
  const asked = request.accounts.length + request.maybe.length + request.upgradeablePrograms.length + request.lookupTables.length;
  if (typeof values.url !== 'string' || typeof values.out !== 'string' || asked === 0) {
    io.stderr('relay-emulator clone: give --url, --out and at least one address (relay-emulator clone --help)\n');
    return 2;
  }
  const url = clusterUrl(values.url);
  const out = resolve(values.out);
  for (const [flag, addresses] of [
    ['ADDRESS', request.accounts],
    ['--maybe', request.maybe],
    ['--upgradeable-program', request.upgradeablePrograms],
    ['--lookup-table', request.lookupTables],
  ] as const) {
    const bad = addresses.find((address) => decodeBase58(address)?.length !== 32);
    if (bad !== undefined) {
      io.stderr(`relay-emulator clone: ${flag} takes an address (base58 of 32 bytes), not ${JSON.stringify(bad).slice(0, 80)}\n`);
      return 2;
    }
  }
  try {
    // Judged before anything is fetched: only an empty folder, a new one, or one holding a manifest of ours (issue 53 item 4).
    // A new folder is made only once there is something to write.
    const existing = lookAt(out).kind === 'nothing' ? null : OwnedFolder.claim(out, cloneFolderKind('--out'));
    const manifest = existing === null ? null : readCloneManifest(existing);
    const result = await fetchClones(url, request);
    writeClones(existing ?? OwnedFolder.claim(out, cloneFolderKind('--out')), manifest?.url === url ? manifest : { url, accounts: {} }, result, request);
    for (const address of result.missing) io.stderr(`relay-emulator clone: ${address}: ${url} has no such account; skipped\n`);
    const where = relative(process.cwd(), out) || '.';
    io.stdout(`cloned ${result.accounts.length} account(s) from ${url} at slot ${result.slot} into ${where} (load them with --account-dir)\n`);
    return 0;
  } catch (error) {
    if (!isInternalError(error)) throw error;
    io.stderr(`relay-emulator clone: ${error.message}\n`);
    return 1;
  }
}
