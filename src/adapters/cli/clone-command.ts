import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isInternalError } from '../../base/errors/internal-error.ts';
import { readCloneManifest, writeClones } from '../../domain/fixtures/clone-cache.ts';
import { type CloneRequest, fetchClones } from '../../domain/fixtures/clone-fetch.ts';
import { clusterUrl } from '../../domain/fixtures/cluster-url.ts';

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

/** `relay-emulator clone`: resolves with the exit code. */
export async function runCloneCommand(argv: string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): Promise<number> {
  let values: Record<string, string | string[] | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string', short: 'u' },
        out: { type: 'string', short: 'o' },
        maybe: { type: 'string', multiple: true },
        'upgradeable-program': { type: 'string', multiple: true },
        'lookup-table': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    io.stderr(`relay-emulator clone: ${(error as Error).message} (relay-emulator clone --help)\n`);
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
  try {
    const result = await fetchClones(url, request);
    const manifest = readCloneManifest(out);
    writeClones(out, manifest?.url === url ? manifest : { url, accounts: {} }, result, request);
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
