import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readBoundedText } from '../../../base/disk/read-file.ts';
import { keypairFromSecretKey } from '../../../base/crypto/keypairs.ts';
export { clusterUrl } from '../../../domain/fixtures/cluster-url.ts';

/**
 * The PubSub URL the Solana CLI derives from an RPC URL: ws for http (wss for https), the port + 1
 * when the URL names one, and a trailing slash (cli-config `compute_websocket_url`).
 */
export function websocketUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port !== '') url.port = String(Number(url.port) + 1);
  return url.toString();
}

/** What the Solana CLI's config file says, and where it is (`-C`, else `~/.config/solana/cli/config.yml`). */
export interface CliConfig {
  jsonRpcUrl: string | null;
  websocketUrl: string | null;
  keypairPath: string;
}

/**
 * Reads the CLI's config as the CLI does, with its defaults where a key is absent. Where the file is
 * absent, the RPC is `http://localhost:8899` (x-emulator-choice: the CLI's default is mainnet-beta,
 * which no offline shim can reach; these shims serve a local emulator).
 */
export function readCliConfig(path?: string, home: string = homedir()): CliConfig {
  const file = path ?? join(home, '.config/solana/cli/config.yml');
  const defaults: CliConfig = { jsonRpcUrl: null, websocketUrl: null, keypairPath: join(home, '.config/solana/id.json') };
  if (!existsSync(file)) return defaults;
  try {
    const read = parseYaml(readBoundedText(file, 1024 * 1024)) as Record<string, unknown> | null;
    const text = (key: string) => (typeof read?.[key] === 'string' && read[key] !== '' ? (read[key] as string) : null);
    return {
      jsonRpcUrl: text('json_rpc_url'),
      websocketUrl: text('websocket_url'),
      keypairPath: text('keypair_path')?.replace(/^~(?=\/|$)/, home) ?? defaults.keypairPath,
    };
  } catch {
    return defaults;
  }
}

/** The public key of a keypair file (64 numbers, as solana-keygen writes), or null when it cannot be read. */
export function keypairAddress(path: string): string | null {
  try {
    return keypairFromSecretKey(Uint8Array.from(JSON.parse(readBoundedText(path, 64 * 1024)) as number[])).publicKey.toBase58();
  } catch {
    return null;
  }
}
