import { DEFAULT_TIMEOUT_MS } from './run-conformance.ts';

/** `relay-emulator conformance --help`. */
export const CONFORMANCE_USAGE = `Usage: relay-emulator conformance --base-url URL --api-key KEY [options]

Runs the relay conformance checks against a running service and prints pass, fail and skip per check.

Options:
  --base-url URL         the service's base address, /api included (required)
  --api-key KEY          sent as X-API-Key (required, but for --interface legacy)
  --rpc-url URL          RPC endpoint for blockhashes when the service has no /Transaction/blockhash
                         (default: RpcUrl of GET /Transaction/config)
  --owner-keypair FILE   Solana CLI keypair file (JSON array of 64 numbers) of an owner holding >= 3
                         base units of --mint; default: an owner funded through the target's /__emulator routes
  --mint ADDRESS         mint of the relay scenarios (default: one made through /__emulator/mints)
  --legacy ENV/INDEX     also check the legacy routes of this app, e.g. devnet/1
  --interface SCOPE      the interfaces the service offers: current, legacy or all (default: all with
                         --legacy, else current); checks of the others are reported N/A, not skipped;
                         kora checks Kora's JSON-RPC at --kora-url instead (--base-url then optional)
  --kora-url URL         Kora's JSON-RPC endpoint (e.g. http://localhost:8080/), for --interface kora
  --kora-api-key KEY     sent as x-api-key to Kora ([kora.auth] api_key)
  --kora-hmac-secret S   signs each Kora request (x-timestamp, x-hmac-signature) as the @solana/kora SDK does
  --report junit|json    write a machine-readable report (to --out, else to stdout; the table then goes to stderr)
  --out FILE             where to write the report; .xml means junit and .json means json when --report is absent
  --timeout MS           bound of each request and of each wait for a relayed effect (default ${DEFAULT_TIMEOUT_MS})
  --only IDS             comma-separated check ids or prefixes ending in '.' (e.g. config.,relay.)
  --verbose              also print the notes of passing checks
  --no-color             no ANSI colours in the table
  -h, --help             this text

Exit code: 0 when every MUST check in scope ran and passed, 1 when a MUST check failed, 2 for a
usage error, 3 when no MUST check failed but some did not run (skipped: the table says why), so
the run is incomplete, 4 when the base URL cannot be reached (nothing was checked).
`;
