/**
 * Issue 45, items 3 to 5: Solana's limits hold for account dumps before anything is allocated, and
 * each breach is one line naming the file, on both engines. A 44 KB base64+zstd dump whose frame
 * declared 1 GiB started at 3–4 GB; one declaring 5 GiB loaded as 1 GiB of wrong data; dumps over
 * 10 MiB loaded; `--account - /dev/zero` read 8 GB; lamports past u64 were a stack trace on
 * litesvm and wrapped to 5 on bankrun; a key named twice was taken silently (the last won).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicKey } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { zstdCompress } from '../src/base/codecs/zstd.ts';
import { createRelayEmulator } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-dump-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADDRESS = new PublicKey('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU');
const OWNER = '11111111111111111111111111111111';
const MiB = 1024 * 1024;

function dumpText(data: [string, string], lamports = '1000000', extra = ''): string {
  const account = `"lamports":${lamports},"data":${JSON.stringify(data)},"owner":"${OWNER}","executable":false,"rentEpoch":0${extra}`;
  return `{"pubkey":"${ADDRESS.toBase58()}","account":{${account}}}`;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A zstd frame header (RFC 8878, 3.1.1.1): single segment with a content size of `sizeBytes` bytes, or a window and no size. */
function frameHeader(options: { declared: bigint; sizeBytes: 4 | 8 } | { windowDescriptor: number }): number[] {
  const magic = [0x28, 0xb5, 0x2f, 0xfd];
  if ('windowDescriptor' in options) return [...magic, 0x00, options.windowDescriptor];
  const flag = options.sizeBytes === 4 ? 2 : 3;
  const size = [...Array(options.sizeBytes)].map((_, index) => Number((options.declared >> BigInt(8 * index)) & 0xffn));
  return [...magic, (flag << 6) | 0x20, ...size];
}

/** An RLE block (3 header bytes and the byte repeated): `size` bytes of `byte`. */
function rleBlock(size: number, last: boolean, byte = 7): number[] {
  const header = (last ? 1 : 0) | (1 << 1) | (size << 3);
  return [header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, byte];
}

const zstd = (bytes: number[]) => Buffer.from(bytes).toString('base64');

async function refusal(path: string): Promise<string> {
  const error = await createRelayEmulator({ accounts: [{ path }], loopback: false }).then(
    async (emulator) => {
      await emulator.close();
      return null;
    },
    (thrown: unknown) => thrown as Error & { code: string },
  );
  expect(error, path).not.toBeNull();
  expect(error!.code).toBe('ACCOUNT_DUMP_INVALID');
  expect(error!.message).not.toContain('\n');
  return error!.message;
}

describe('account dumps past Solana’s limits', () => {
  it('refuses a zstd frame that declares more than 10 MiB before decompressing it', async () => {
    // 44 KB of RLE blocks behind a header that declares 1 GiB: what the campaign sent.
    const blocks = [...Array(11_000)].flatMap((_, index) => rleBlock(128 * 1024, index === 10_999));
    const gib = write('gib.json', dumpText([zstd([...frameHeader({ declared: 1n << 30n, sizeBytes: 4 }), ...blocks]), 'base64+zstd']));
    expect(await refusal(gib)).toBe(
      `${gib}: its "account.data" cannot be loaded: its zstd frame declares 1073741824 bytes, more than 10485760 (an account holds at most 10 MiB)`,
    );
    // 5 GiB in the 8-byte size field: read as 1 GiB before, and loaded as 1,073,741,825 bytes of wrong data.
    const five = write('five.json', dumpText([zstd([...frameHeader({ declared: 5n << 30n, sizeBytes: 8 }), ...rleBlock(1, true)]), 'base64+zstd']));
    expect(await refusal(five)).toMatch(/five\.json: its "account\.data" cannot be loaded: its zstd frame declares 5368709120 bytes, more than 10485760/);
  });

  it('refuses frames without a size whose blocks hold more than 10 MiB, or whose window is larger', async () => {
    // 81 RLE blocks of 128 KiB: 10 MiB and 128 KiB, no size declared (window descriptor 0x58: 8 MiB).
    const blocks = [...Array(81)].flatMap((_, index) => rleBlock(128 * 1024, index === 80));
    const many = write('many.json', dumpText([zstd([...frameHeader({ windowDescriptor: 0x58 }), ...blocks]), 'base64+zstd']));
    expect(await refusal(many)).toMatch(/many\.json: .*its zstd frames hold more than 10485760 bytes/);
    // A window of 2 GiB (exponent 21): the decoder would hold it whatever the frame holds.
    const wide = write('wide.json', dumpText([zstd([...frameHeader({ windowDescriptor: 21 << 3 }), ...rleBlock(4, true)]), 'base64+zstd']));
    expect(await refusal(wide)).toMatch(/wide\.json: .*its zstd frame asks for a window of 2147483648 bytes, more than 10485760/);
  });

  it('refuses data past 10 MiB, plain or compressed, and a file past a dump’s size without reading it all', async () => {
    const over = Buffer.alloc(10 * MiB + 1, 1);
    const plain = write('plain.json', dumpText([over.toString('base64'), 'base64']));
    expect(await refusal(plain)).toBe(`${plain}: its "account.data" holds 10485761 bytes, more than an account holds (10485760, 10 MiB)`);
    const compressed = write('compressed.json', dumpText([Buffer.from(await zstdCompress(over)).toString('base64'), 'base64+zstd']));
    expect(await refusal(compressed)).toMatch(
      /compressed\.json: its "account\.data" cannot be loaded: its zstd frame declares 10485761 bytes, more than 10485760/,
    );
    expect(await refusal('/dev/zero')).toBe('/dev/zero: is a device, a pipe or a socket, not a regular file');
  });

  it('loads 10 MiB exactly, and a frame that libzstd compressed, byte for byte', async () => {
    const data = Buffer.alloc(10 * MiB);
    for (let index = 0; index < data.length; index += 4096) data[index] = index & 0xff;
    const path = write(
      'exact.json',
      dumpText([Buffer.from(await zstdCompress(data)).toString('base64'), 'base64+zstd'], '73000000000', `,"space":${data.length}`),
    );
    const emulator = await createRelayEmulator({ accounts: [{ path }], loopback: false });
    try {
      const account = await emulator.getAccount(ADDRESS.toBase58());
      expect(Buffer.compare(Buffer.from(account!.data), data)).toBe(0);
    } finally {
      await emulator.close();
    }
  });

  it('refuses lamports past u64 and a key named twice, in one line naming the file', async () => {
    const rich = write('rich.json', dumpText(['', 'base64'], '18446744073709551621'));
    expect(await refusal(rich)).toBe(`${rich}: its "account.lamports" is 18446744073709551621, more than an account holds (u64, at most 18446744073709551615)`);
    const float = write('float.json', dumpText(['', 'base64'], '1e30'));
    expect(await refusal(float)).toBe(`${float}: its "account.lamports" is not a whole number of lamports`);
    const twice = write('twice.json', dumpText(['', 'base64'], '5', ',"lamports":7'));
    expect(await refusal(twice)).toBe(`${twice}: names the key "lamports" twice in one object; the Solana CLI and the validator refuse such a dump`);
    // Escapes are read as JSON reads them: "own\u0065r" is "owner".
    const escaped = write('escaped.json', dumpText(['', 'base64'], '5', `,"own\\u0065r":"${OWNER}"`));
    expect(await refusal(escaped)).toMatch(/escaped\.json: names the key "owner" twice/);
  });
});
