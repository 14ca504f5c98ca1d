import { describe, expect, it } from 'vitest';
import type { RelayError } from '../../base/errors/relay-error.ts';
import type { RequestContext } from '../../base/http/request-context.ts';
import { serverMount, type ServerMount } from '../../base/http/server-mount.ts';
import { checkControlRequest } from './browser-guard.ts';

/** A request as the node adapter hands it over: its headers exactly as sent, Host included. */
function arrived(headers: Record<string, string>): { request: Request; context: RequestContext } {
  const request = new Request('http://127.0.0.1:8787/__emulator/reset', { method: 'POST' });
  const nativeHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { request, context: { nativeHeaders } };
}

function verdict(mount: ServerMount, headers: Record<string, string>, open = true): string | null {
  try {
    const { request, context } = arrived(headers);
    return `ok ${checkControlRequest(request, context, mount, { open }) ?? '-'}`;
  } catch (error) {
    return (error as RelayError).code;
  }
}

describe('checkControlRequest', () => {
  const loopback = serverMount({ host: '127.0.0.1' });
  const wildcard = serverMount({ host: '0.0.0.0', publicUrl: 'http://10.0.2.2:8787' });
  const named = serverMount({ host: 'relay.internal', controlOrigins: ['http://localhost:5173'] });

  it('takes loopback names on any mount, and a bind’s own names', () => {
    for (const host of ['127.0.0.1:8787', '127.9.9.9', 'localhost', 'LocalHost.:8787', 'web.localhost:1', '[::1]:8787', '[0:0:0:0:0:0:0:1]', '0x7f.1:8787']) {
      expect(verdict(loopback, { host }), host).toBe('ok -');
    }
    expect(verdict(named, { host: 'relay.internal:8787' })).toBe('ok -');
    expect(verdict(wildcard, { host: '10.0.2.2:8787' })).toBe('ok -');
  });

  it('refuses other names and addresses on an open bind; behind a token the token decides', () => {
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '192.168.1.20:8787', '[2001:db8::1]', '', ' ', 'a:b:c', '[::1']) {
      expect(verdict(loopback, { host }), host).toBe('HOST_NOT_ALLOWED');
    }
    expect(verdict(loopback, {})).toBe('HOST_NOT_ALLOWED');
    expect(verdict(named, { host: 'relay.internal.evil.example' })).toBe('HOST_NOT_ALLOWED');
    // A page cannot know a token; a container calls the emulator by whatever name its network gives.
    for (const host of ['192.168.1.20:8787', 'relay-emulator:8787', 'evil.example']) expect(verdict(wildcard, { host }, false), host).toBe('ok -');
    expect(verdict(wildcard, { host: 'relay-emulator:8787', origin: 'https://evil.example' }, false)).toBe('ORIGIN_NOT_ALLOWED');
    expect(verdict(wildcard, { host: 'relay-emulator:8787', origin: 'http://relay-emulator:8787' }, false)).toBe('ok http://relay-emulator:8787');
  });

  it('takes a same-origin Origin (host and port as the Host’s, default ports understood) and the trusted ones', () => {
    expect(verdict(loopback, { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' })).toBe('ok http://127.0.0.1:8787');
    expect(verdict(loopback, { host: 'localhost', origin: 'http://localhost' })).toBe('ok http://localhost');
    expect(verdict(loopback, { host: 'localhost:80', origin: 'http://localhost' })).toBe('ok http://localhost');
    expect(verdict(loopback, { host: '[::1]:8787', origin: 'http://[::1]:8787' })).toBe('ok http://[::1]:8787');
    expect(verdict(named, { host: '127.0.0.1:8787', origin: 'http://localhost:5173' })).toBe('ok http://localhost:5173');
    expect(verdict(wildcard, { host: '127.0.0.1:8787', origin: 'http://10.0.2.2:8787' }, false)).toBe('ok http://10.0.2.2:8787');
  });

  it('refuses any other Origin, and a cross-site or same-site page without one', () => {
    for (const origin of [
      'https://evil.example',
      'http://127.0.0.1:8788',
      'http://localhost:8787',
      'https://127.0.0.1:8787',
      'null',
      'file://',
      'chrome-extension://abc',
      'http://127.0.0.1:8787/path',
      'http://127.0.0.1:8787/',
      '',
    ]) {
      expect(verdict(loopback, { host: '127.0.0.1:8787', origin }), origin).toBe('ORIGIN_NOT_ALLOWED');
    }
    expect(verdict(loopback, { host: 'localhost', origin: 'http://localhost:5173' })).toBe('ORIGIN_NOT_ALLOWED');
    expect(verdict(loopback, { host: 'localhost', origin: 'https://localhost' })).toBe('ORIGIN_NOT_ALLOWED');
    expect(verdict(loopback, { host: '127.0.0.1:8787', 'sec-fetch-site': 'cross-site' })).toBe('ORIGIN_NOT_ALLOWED');
    expect(verdict(loopback, { host: '127.0.0.1:8787', 'sec-fetch-site': 'same-site' })).toBe('ORIGIN_NOT_ALLOWED');
    expect(verdict(loopback, { host: '127.0.0.1:8787', 'sec-fetch-site': 'same-origin' })).toBe('ok -');
    expect(verdict(loopback, { host: '127.0.0.1:8787', 'sec-fetch-site': 'none' })).toBe('ok -');
  });

  it('refuses on an open bind a request forwarded for another machine; with a token, the token decides', () => {
    const host = '127.0.0.1:8787';
    for (const forwarded of <Record<string, string>[]>[
      { 'x-forwarded-for': '8.8.8.8' },
      { 'x-forwarded-for': '::1, 203.0.113.9' },
      { forwarded: 'for=192.0.2.43:47011' },
      { forwarded: 'for=unknown' },
      { 'x-real-ip': '10.1.1.1' },
    ]) {
      expect(verdict(loopback, { host, ...forwarded }), JSON.stringify(forwarded)).toBe('CONTROL_FORWARDED');
      expect(verdict(loopback, { host, ...forwarded }, false), JSON.stringify(forwarded)).toBe('ok -');
    }
    expect(verdict(loopback, { host, 'x-forwarded-for': '127.0.0.1, ::ffff:127.0.0.1', forwarded: 'for="[::1]:80"', 'x-real-ip': '127.0.0.2' })).toBe('ok -');
  });
});

describe('serverMount', () => {
  it('refuses a control origin that is not an origin', () => {
    for (const origin of ['localhost:5173', 'http://localhost:5173/app', 'ftp://host', 'null', 'http://user@host']) {
      expect(() => serverMount({ host: '127.0.0.1', controlOrigins: [origin] }), origin).toThrow(/not an origin/);
    }
    expect([...serverMount({ host: '127.0.0.1', controlOrigins: ['HTTP://LocalHost:5173/'] }).controlOrigins]).toEqual(['http://localhost:5173']);
  });
});
