/**
 * Decoding by an IDL that was not written for it: whatever the IDL and the data, the decoder is
 * built or refused, and answers or declines, without throwing and in bounded time (the relay
 * detail, the transaction journal and the wallet view call it on every request).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idlInstructionDecoder } from './idl-instructions.ts';

const DISCRIMINATOR = [1, 2, 3, 4, 5, 6, 7, 8];
const idlOf = (instructions: unknown, types: unknown[] = []) => ({ metadata: { name: 'hostile', spec: '0.1.0' }, instructions, types });
const oneArg = (type: unknown, types: unknown[] = []) =>
  idlOf([{ name: 'go', discriminator: DISCRIMINATOR, accounts: [], args: [{ name: 'value', type }] }], types);
const data = (...bytes: number[]) => Uint8Array.from([...DISCRIMINATOR, ...bytes]);
const u32 = (value: number) => [...Buffer.from(new Uint32Array([value]).buffer)];
const EMPTY = { name: 'Empty', type: { kind: 'struct', fields: [] } };

describe('idlInstructionDecoder', () => {
  it("decodes the puppet fixture's set_data (the IDL anchor build wrote)", () => {
    const idl = JSON.parse(readFileSync(new URL('../../../test/real-clients/anchor/workspace/target/idl/puppet.json', import.meta.url), 'utf8'));
    const decode = idlInstructionDecoder(idl)!;
    const setData = [223, 114, 91, 136, 197, 78, 153, 153, 5, 0, 0, 0, 0, 0, 0, 0];
    expect(decode(Uint8Array.from(setData), ['11111111111111111111111111111111'])).toEqual({
      name: 'set_data',
      args: [{ name: 'data', type: 'u64', value: '5' }],
      accounts: [{ name: 'puppet', address: '11111111111111111111111111111111' }],
    });
  });

  it('refuses instructions that are not objects with a name and a discriminator, and takes account entries that are not objects', () => {
    expect(idlInstructionDecoder(idlOf([null]))).toBeNull();
    expect(idlInstructionDecoder(idlOf([{ name: 7, discriminator: DISCRIMINATOR, accounts: [], args: [] }]))).toBeNull();
    // An empty discriminator matches every instruction of the program.
    expect(idlInstructionDecoder(idlOf([{ name: 'any', discriminator: [], accounts: [], args: [] }]))).toBeNull();
    const decode = idlInstructionDecoder(idlOf([{ name: 'go', discriminator: DISCRIMINATOR, accounts: [null, 5], args: [] }]))!;
    expect(() => decode(data(), [])).not.toThrow();
  });

  it('refuses composite accounts nested past the stack', () => {
    let account: object = { name: 'leaf' };
    for (let depth = 0; depth < 100_000; depth++) account = { name: 'group', accounts: [account] };
    expect(idlInstructionDecoder(idlOf([{ name: 'go', discriminator: DISCRIMINATOR, accounts: [account], args: [] }]))).toBeNull();
  });

  it('refuses a Vec of a type of no bytes, which decodes by looping as many times as the data says', () => {
    // Unrefused, 2^20 empty elements take a second; 2^32 - 1, which anyone may send, an hour and all memory.
    expect(idlInstructionDecoder(oneArg({ vec: { defined: { name: 'Empty' } } }, [EMPTY]))?.(data(...u32(2 ** 20)), [])).toBeUndefined();
    expect(idlInstructionDecoder(oneArg({ vec: { array: ['u8', 0] } }))).toBeNull();
    // The coder measures a long array of empty elements one at a time as it builds it.
    expect(idlInstructionDecoder(oneArg({ array: [{ array: ['u8', 0] }, 100_000_000] }))).toBeNull();
  });

  it('refuses types whose expansion is exponential or recursive, or searched for too often, in milliseconds', () => {
    const doubling = Array.from({ length: 22 }, (_, at) => {
      const next = at === 21 ? 'u8' : { defined: { name: `T${at + 1}` } };
      return {
        name: `T${at}`,
        type: {
          kind: 'struct',
          fields: [
            { name: 'a', type: next },
            { name: 'b', type: next },
          ],
        },
      };
    });
    // 2^22 fields if it were laid out: declined from the types' sizes without laying it out (the test's timeout bounds it, no timing asserted).
    expect(idlInstructionDecoder(oneArg({ defined: { name: 'T0' } }, doubling))).toBeNull();
    const selfish = { name: 'Node', type: { kind: 'struct', fields: [{ name: 'next', type: { option: { defined: { name: 'Node' } } } }] } };
    expect(idlInstructionDecoder(oneArg({ defined: { name: 'Node' } }, [selfish]))).toBeNull();
  });

  it('declines data the layout cannot hold: a Vec longer than the data, an enum tag past its variants', () => {
    expect(idlInstructionDecoder(oneArg({ vec: 'u8' }))!(data(...u32(2 ** 32 - 1), 1), [])).toBeUndefined();
    const choice = { name: 'Choice', type: { kind: 'enum', variants: [{ name: 'Only' }] } };
    expect(idlInstructionDecoder(oneArg({ defined: { name: 'Choice' } }, [choice]))!(data(9), [])).toBeUndefined();
  });
});
