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

  it('is refused by the state import at once, 50 MB of it, and the server answers meanwhile', async () => {
    const half = 25 * 1024 * 1024;
    const body = `${'['.repeat(half)}${']'.repeat(half)}`;
    const started = performance.now();
    const [response, health] = await Promise.all([post('/__emulator/state', body, 'PUT'), fetch(`${origin}/health`)]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'MALFORMED_JSON',
      detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    });
    expect(health.status).toBe(200);
    console.log(`50 MB of nesting refused in ${Math.round(performance.now() - started)} ms (8–13 s before)`);
  });

  it('is refused by the state import as it arrives when it holds more arrays than a state could, and the server answers meanwhile', async () => {
    // Issue 45, item 2: 150 MB of `[],` (50 million empty arrays, none deeper than 2) ran the heap out; 48 MB
    // held /health for 9.9 s at 1.2 GB and answered 400 only after parsing it all. Shallow, so the depth
    // limit never saw it. 48 MB here, sent with its length as curl sends it.
    const body = `[${'[],'.repeat(16_000_000)}[]]`;
    const [response, health] = await Promise.all([post('/__emulator/state', body, 'PUT'), fetch(`${origin}/health`)]);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The request body holds more than 4000000 arrays and objects, the most this route reads.',
    });
    expect(health.status).toBe(200);
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
