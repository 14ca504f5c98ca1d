import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { JsonShapeScan, MAX_JSON_DEPTH, nestsDeeperThan } from '../src/base/codecs/json-shape.ts';
import { decodeState } from '../src/domain/state/state-codec.ts';

/**
 * Issue 34, fuzz finding 3: 50 MB of nested JSON arrays sent to PUT /__emulator/state took 8–13 s
 * to be refused, peaked at 4.4 GB and blocked /health. Every JSON body is now refused past serde_json's
 * recursion limit (128) before it is parsed.
 */
describe('JSON nested past 128 levels', () => {
  let emulator: RelayEmulator;
  let origin: string;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    origin = new URL(emulator.config.rpcUrl).origin;
  });
  afterAll(() => emulator.close());

  const post = (path: string, body: string, method = 'POST') =>
    fetch(`${origin}${path}`, { method, headers: { 'content-type': 'application/json', 'X-API-Key': emulator.config.apiKey }, body });

  /**
   * PUT /__emulator/state with `body` streamed a megabyte at a time, its length declared: once `healthAt`
   * bytes are sent, GET /health is awaited before another byte goes. The response, the bytes sent when it came, /health's.
   */
  const putAsItArrives = async (body: Buffer, healthAt: number) => {
    const CHUNK = 1024 * 1024;
    let sent = 0;
    let health: Response | null = null;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (health === null && sent >= healthAt) health = await fetch(`${origin}/health`);
        if (sent >= body.length) return controller.close();
        controller.enqueue(body.subarray(sent, sent + CHUNK));
        sent += CHUNK;
      },
    });
    const response = await fetch(`${origin}/__emulator/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'X-API-Key': emulator.config.apiKey },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    return { response, sent, health: health as Response | null };
  };

  it('is refused by the state import at once, 50 MB of it, and the server answers meanwhile', async () => {
    const half = 25 * 1024 * 1024;
    const body = Buffer.from(`${'['.repeat(half)}${']'.repeat(half)}`);
    // /health before the first byte of the body goes, and the refusal before its last: a server that read
    // 50 MB and then parsed it in one block (8 to 13 s, before) answers neither in time for the test.
    const { response, sent, health } = await putAsItArrives(body, 0);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'MALFORMED_JSON',
      detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    });
    expect(health?.status).toBe(200);
    expect(sent).toBeLessThan(body.length);
  });

  it('is refused by the state import as it arrives when it holds more arrays than a state could, and the server answers meanwhile', async () => {
    // Issue 45, item 2: 150 MB of `[],` (50 million empty arrays, none deeper than 2) ran the heap out; 48 MB
    // held /health for 9.9 s at 1.2 GB and answered 400 only after parsing it all. Shallow, so the depth
    // limit never saw it. 48 MB here, sent with its length as curl sends it.
    const body = Buffer.from(`[${'[],'.repeat(16_000_000)}[]]`);
    // Sent a megabyte at a time; 6 MB in (the refusal comes at 4,000,000 arrays, 12 MB), /health must answer before
    // another byte goes, and the refusal must come before the body ends: it is read as it arrives.
    const { response, sent, health } = await putAsItArrives(body, 6 * 1024 * 1024);
    expect(response.status).toBe(413);
    expect(health?.status).toBe(200);
    expect(sent).toBeLessThan(body.length);
    expect(await response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The request body holds more than 4000000 arrays and objects, the most this route reads.',
    });
    // Values are bounded too: 12 million numbers in one array, 24 MB.
    const numbers = await post('/__emulator/state', `{"a":[${'0,'.repeat(12_000_000)}0]}`, 'PUT');
    expect(numbers.status).toBe(413);
    expect(((await numbers.json()) as { detail: string }).detail).toBe('The request body holds more than 12000000 values, the most this route reads.');
    // A state the emulator exported is read as before.
    const exported = await (await fetch(`${origin}/__emulator/state`)).text();
    expect((await post('/__emulator/state', exported, 'PUT')).status).toBe(200);
  });

  it('is a parse error on the RPC, a 400 on the relay’s routes, and refused by Kora as jsonrpsee refuses what is no call', async () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const rpc = await post('/rpc', deep);
    expect(await rpc.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    const relay = await post('/api/Transaction/send', `{"signedTransaction":${deep}}`);
    expect(relay.status).toBe(400);
    expect(((await relay.json()) as { code: string }).code).toBe('MALFORMED_JSON');
    const kora = await post('/kora', `{"jsonrpc":"2.0","id":1,"method":"getConfig","params":${deep}}`);
    expect(kora.status).toBe(405);
    // Within the limit, the same shapes are read.
    const shallow = await post('/rpc', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: [] }));
    expect(((await shallow.json()) as { result: number }).result).toEqual(expect.any(Number));
  });

  it('is refused when a state file holds it, as any text that is not a state', () => {
    expect(() => decodeState(`{"a":${'['.repeat(129)}${']'.repeat(129)}}`)).toThrow(SyntaxError);
    expect(decodeState(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`)).toBeTruthy();
  });

  it('scans chunk by chunk as one text: an escape or a string may end a chunk', () => {
    const scan = new JsonShapeScan({ depth: 3, containers: 3 });
    expect(scan.bytes(Buffer.from('{"a":"\\'))).toBeNull();
    // The quote after the backslash of the last chunk is escaped: these brackets are still text.
    expect(scan.bytes(Buffer.from('"[[[[",'))).toBeNull();
    expect(scan.bytes(Buffer.from('"b":[{},'))).toBeNull();
    expect(scan.bytes(Buffer.from('[]]}'))).toBe('containers');
    expect(new JsonShapeScan({ depth: 9, values: 2 }).text('[1,2,3]')).toBe('values');
    expect(new JsonShapeScan({ depth: 9, values: 3 }).text('[1,2,3]')).toBeNull();
    // Multi-byte UTF-8 is never a bracket or a quote.
    expect(new JsonShapeScan({ depth: 1 }).bytes(Buffer.from('["€[[[ 😀 ["]'))).toBeNull();
  });

  it('counts brackets inside strings as text', () => {
    expect(nestsDeeperThan(JSON.stringify({ memo: '['.repeat(1000) }), 128)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"[[["}`, 1)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(128)}${']'.repeat(128)}`, 128)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(129)}${']'.repeat(129)}`, 128)).toBe(true);
  });
});
