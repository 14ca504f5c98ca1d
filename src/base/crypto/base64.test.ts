import { describe, expect, it } from 'vitest';
import { base64Problem, decodeBase64AsRust } from './base64.ts';

describe('base64Problem', () => {
  it('says nothing of standard base64, and what is wrong with anything else', () => {
    expect(base64Problem('AQID')).toBeNull();
    expect(base64Problem('AQI=')).toBeNull();
    expect(base64Problem('')).toBe('it is empty');
    expect(base64Problem('AQ-D')).toBe(
      '"-" at position 2 is not a base64 character (that is base64url: use + for - and / for _); expected A-Z, a-z, 0-9, + and /, padded with =',
    );
    expect(base64Problem('AQ ID')).toMatch(/^a space at position 2 is not a base64 character/);
    expect(base64Problem('AQ\nID')).toMatch(/^whitespace \(U\+000A\) at position 2/);
    expect(base64Problem('AQ=D')).toMatch(/^"=" at position 2 is padding, which only ends it/);
    expect(base64Problem('AQI')).toBe('it is 3 characters long; standard base64 comes in groups of 4, the last padded with = (add =)');
    expect(base64Problem('AQIDB')).toMatch(/5 characters long.*one character too many, or three missing/);
    expect(base64Problem('héllo=')).toMatch(/^"é" at position 1/);
  });
});

describe('decodeBase64AsRust', () => {
  const error = (text: string) => {
    const answer = decodeBase64AsRust(text);
    return 'error' in answer ? answer.error : Buffer.from(answer.bytes).toString('hex');
  };
  it('decodes canonical base64, and names what the base64 crate names', () => {
    expect(error('AQI=')).toBe('0102');
    expect(error('AQID')).toBe('010203');
    expect(error('')).toBe('');
    expect(error('AQJ=')).toBe('InvalidLastSymbol(2, 74)');
    expect(error('AR==')).toBe('InvalidLastSymbol(1, 82)');
    expect(error('AQ')).toBe('InvalidPadding');
    expect(error('AQ=')).toBe('InvalidPadding');
    expect(error('A')).toBe('InvalidLength(1)');
    expect(error('AQIDA')).toBe('InvalidLength(5)');
    expect(error('AQID\n')).toBe('InvalidByte(4, 10)');
    expect(error('AQ!D')).toBe('InvalidByte(2, 33)');
    expect(error('A!IDAQID')).toBe('InvalidByte(1, 33)');
    expect(error('AQIDAQ!D')).toBe('InvalidByte(6, 33)');
    expect(error('A===')).toBe('InvalidByte(1, 61)');
    expect(error('AQ=D')).toBe('InvalidByte(2, 61)');
    expect(error('AQ==AQID')).toBe('InvalidByte(2, 61)');
    // Bytes of the UTF-8 text: é is 0xc3 0xa9.
    expect(error('Aé==')).toBe('InvalidByte(1, 195)');
  });
});
