import { SolanaCliError } from './solana-cli-error.ts';
import { isJsonWithKeys, OwnedFile } from '../../../base/disk/owned-file.ts';
import { ZstdRefusal, zstdDecompress } from '../../../base/codecs/zstd.ts';
import { FetchProblem, fetchBounded } from '../../../base/http/bounded-fetch.ts';
import { exactJson } from '../../../domain/fixtures/account-dumps.ts';
import type { SolanaIo, SolanaTarget } from './solana-target.ts';

const LAMPORTS_PER_SOL = 1_000_000_000n;

/** An account holds at most 10 MiB: its base64 and the JSON around it stay below this. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** MAX_PERMITTED_DATA_LENGTH: the most a frame of account data may decompress to. */
const MAX_ACCOUNT_BYTES = 10 * 1024 * 1024;

/** A JSON-RPC call to the target, its result (bigints exact), or an Error with the RPC's message. */
async function rpc<T>(target: SolanaTarget, method: string, params: unknown[]): Promise<T> {
  let text: string;
  try {
    ({ text } = await fetchBounded(
      target.rpcUrl,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) },
      { maxBytes: MAX_ANSWER_BYTES, timeoutMs: 30_000 },
    ));
  } catch (error) {
    if (error instanceof FetchProblem) throw new SolanaCliError(`${target.rpcUrl}: ${error.message}`);
    throw error;
  }
  // Lamports and rent epochs pass 2^53: read them as text-exact bigints.
  let body: { result?: T; error?: { message: string } };
  try {
    body = JSON.parse(text.replace(/"(lamports|rentEpoch|value)":(\d{16,})/g, '"$1":"$2"')) as typeof body;
  } catch {
    throw new SolanaCliError(`${target.rpcUrl}: its answer to ${method} is not JSON`);
  }
  if (body.error) throw new SolanaCliError(body.error.message);
  return body.result as T;
}

/** The CLI's balance text: SOL with trailing zeros trimmed (`1.5 SOL`, `0 SOL`), or `N lamports`. */
export function balanceText(lamports: bigint, inLamports: boolean): string {
  if (inLamports) return `${lamports} lamport${lamports === 1n ? '' : 's'}`;
  const whole = lamports / LAMPORTS_PER_SOL;
  const fraction = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`} SOL`;
}

/** `solana balance [ADDRESS] [--lamports]`. */
export async function showBalance(address: string, inLamports: boolean, target: SolanaTarget, io: SolanaIo): Promise<number> {
  const { value } = await rpc<{ value: number | string }>(target, 'getBalance', [address, { commitment: target.commitment }]);
  const lamports = BigInt(value);
  io.stdout(target.output === 'display' ? `${balanceText(lamports, inLamports)}\n` : `${jsonOut({ lamports }, target)}\n`);
  return 0;
}

/** `solana airdrop AMOUNT [RECIPIENT]`: requestAirdrop, confirmed, then the new balance, as the CLI prints them. */
export async function requestAirdrop(amount: string, recipient: string, target: SolanaTarget, io: SolanaIo): Promise<number> {
  if (!/^\d+(\.\d{0,9})?$/.test(amount)) throw new SolanaCliError(`Unable to parse input amount as float, provided: ${amount}`);
  const [whole, fraction = ''] = amount.split('.');
  const lamports = BigInt(whole!) * LAMPORTS_PER_SOL + BigInt(fraction.padEnd(9, '0'));
  io.stdout(`Requesting airdrop of ${balanceText(lamports, false)}\n`);
  const before = BigInt((await rpc<{ value: number | string }>(target, 'getBalance', [recipient, { commitment: target.commitment }])).value);
  let signature: string;
  try {
    signature = await rpc<string>(target, 'requestAirdrop', [recipient, Number(lamports), { commitment: target.commitment }]);
  } catch {
    throw new SolanaCliError('airdrop request failed. This can happen when the rate limit is reached.');
  }
  for (let tries = 0; tries < 120; tries += 1) {
    const { value } = await rpc<{ value: ({ err: unknown; confirmationStatus: string } | null)[] }>(target, 'getSignatureStatuses', [[signature]]);
    const status = value[0];
    if (status && status.err !== null) throw new SolanaCliError(`Transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status && status.confirmationStatus !== 'processed') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  io.stdout(target.output === 'display' ? `\nSignature: ${signature}\n\n` : `${jsonOut({ signature }, target)}\n`);
  const after = BigInt((await rpc<{ value: number | string }>(target, 'getBalance', [recipient, { commitment: target.commitment }])).value);
  if (after < before + lamports) io.stdout(`Balance unchanged\nRun \`solana confirm -v ${JSON.stringify(signature)}\` for more info\n`);
  else io.stdout(`${balanceText(after, false)}\n`);
  return 0;
}

/** `solana account ADDRESS [--output json|json-compact] [-o FILE] [--lamports]`, read as the CLI reads it (base64+zstd). */
export async function showAccount(
  address: string,
  options: { lamports: boolean; outputFile: string | null },
  target: SolanaTarget,
  io: SolanaIo,
): Promise<number> {
  // Judged before anything is asked (decision 0010): a dump replaces only a dump, raw data only nothing or an empty file.
  const outputFile =
    options.outputFile === null
      ? null
      : OwnedFile.claim(
          options.outputFile,
          target.output === 'display'
            ? { label: '--output-file', what: "an account's data", isOurs: () => false, maxBytes: 0 }
            : { label: '--output-file', what: 'an account dump', isOurs: (text) => isJsonWithKeys(text, ['pubkey', 'account']), maxBytes: 64 * 1024 * 1024 },
        );
  const { value } = await rpc<{ value: AccountJson | null }>(target, 'getAccountInfo', [address, { encoding: 'base64+zstd', commitment: target.commitment }]);
  if (value === null) throw new SolanaCliError(`AccountNotFound: pubkey=${address}`);
  const [encoded, encoding] = value.data;
  const raw = Buffer.from(encoded, 'base64');
  // Bounded before anything is allocated: a 43 KB answer declaring 1 GiB once took 3.5 GB (issue 53 item 7).
  const data = encoding === 'base64+zstd' ? Buffer.from(await decompressed(raw, address)) : raw;
  const lamports = BigInt(value.lamports);
  if (target.output !== 'display') {
    const json = jsonOut(
      {
        pubkey: address,
        account: {
          lamports,
          data: [data.toString('base64'), 'base64'],
          owner: value.owner,
          executable: value.executable,
          rentEpoch: BigInt(value.rentEpoch),
          space: data.length,
        },
      },
      target,
    );
    if (options.outputFile !== null) {
      // A dump replaces only a dump, an empty file, or nothing (decision 0010).
      OwnedFile.claim(options.outputFile, {
        label: '--output-file',
        what: 'an account dump',
        isOurs: (text) => isJsonWithKeys(text, ['pubkey', 'account']),
        maxBytes: 64 * 1024 * 1024,
      }).write(json);
      io.stdout(`\nWrote account to ${options.outputFile}\n`);
    } else io.stdout(`${json}\n`);
    return 0;
  }
  const rows = [`Public Key: ${address}`, `Balance: ${balanceText(lamports, options.lamports)}`, `Owner: ${value.owner}`, `Executable: ${value.executable}`];
  let text = `\n${rows.join('\n')}\nRent Epoch: ${value.rentEpoch}\n`;
  if (outputFile !== null) {
    outputFile.write(data);
    text += `\nWrote account data to ${options.outputFile}\n`;
  } else if (data.length > 0) text += `${hexDump(data)}\n`;
  io.stdout(`${text}\n`);
  return 0;
}

interface AccountJson {
  lamports: number | string;
  data: [string, string];
  owner: string;
  executable: boolean;
  rentEpoch: number | string;
}

function jsonOut(value: unknown, target: SolanaTarget): string {
  return exactJson(value, target.output === 'json' ? 2 : undefined);
}

/** pretty-hex's dump, as the CLI prints account data: a length line, then rows of 16 bytes in groups of 4 and their ASCII. */
export function hexDump(data: Uint8Array): string {
  const width = data.length - 1 <= 0xffff ? 4 : data.length - 1 <= 0xffffff ? 6 : 8;
  const rows = [`Length: ${data.length} (0x${data.length.toString(16)}) bytes`];
  for (let at = 0; at < data.length; at += 16) {
    const row = data.subarray(at, at + 16);
    const groups: string[] = [];
    for (let group = 0; group < 16; group += 4) {
      groups.push([...Array(4).keys()].map((index) => (group + index < row.length ? row[group + index]!.toString(16).padStart(2, '0') : '  ')).join(' '));
    }
    const ascii = [...row].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    rows.push(`${at.toString(16).padStart(width, '0')}:   ${groups.join('  ')}   ${ascii}`);
  }
  return rows.join('\n');
}

/** An account's base64+zstd data, at most an account's size, or the refusal in the CLI's way. */
async function decompressed(raw: Uint8Array, address: string): Promise<Uint8Array> {
  try {
    return await zstdDecompress(raw, MAX_ACCOUNT_BYTES);
  } catch (error) {
    if (error instanceof ZstdRefusal) throw new SolanaCliError(`the data of ${address}: ${error.message}`);
    throw error;
  }
}
