import { describe, expect, it } from 'vitest';
import { base64Problem } from './base64.ts';

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
