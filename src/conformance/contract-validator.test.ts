import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContractValidator, defaultContractValidator } from './contract-validator.ts';

// A signature as the contract defines one: base58 of 64 bytes.
const signature = '2hxGyn4y9Mjkii76BqmxVoNYbTs3tw97bmtZRXnDoZPAw7VZTWhhk1aV11DtFgYGVibPaty4PQLHVLaKrT24NxGU';
const receipt = {
  status: 'Queued',
  message: 'Account creation transaction queued successfully.',
  signature,
  Status: 'Queued',
  Message: 'Account creation transaction queued successfully.',
  Signature: signature,
};

describe('contract validator', () => {
  const contract = defaultContractValidator();

  it('is shared per process', () => {
    expect(defaultContractValidator()).toBe(contract);
  });

  it('accepts a declared response and names the operation', () => {
    expect(contract.validateResponse({ method: 'POST', path: '/Account/create', status: 200, body: receipt })).toEqual({
      pathKey: '/Account/create',
      operationId: 'createAccount',
      error: null,
    });
  });

  it('reports an undeclared status, a missing field and an undeclared content type', () => {
    expect(contract.validateResponse({ method: 'post', path: '/Account/create', status: 201, body: receipt }).error).toMatch(
      /status 201 is not declared \(declared: 200, 400/,
    );
    const { signature: _s, ...noSignature } = receipt;
    expect(contract.validateResponse({ method: 'post', path: '/Account/create', status: 200, body: noSignature }).error).toMatch(
      /must have required property 'signature'/,
    );
    expect(contract.validateResponse({ method: 'get', path: '/Transaction/config', status: 401, body: 'no', contentType: 'text/html' }).error).toMatch(
      /content type text\/html is not declared/,
    );
  });

  it('resolves concrete paths against templates, preferring the exact casing', () => {
    expect(contract.findPath('/app/devnet/1/config', 'get')).toBe('/app/{environment}/{index}/config');
    expect(contract.findPath('/account/create', 'post')).toBe('/account/create');
    expect(contract.findPath('/Account/create', 'post')).toBe('/Account/create');
    expect(contract.findPath('/Account/gethistory?WalletAddress=x', 'post')).toBe('/Account/gethistory');
    expect(contract.validateResponse({ method: 'get', path: '/nope', status: 200, body: {} }).error).toMatch(/spec has no operation GET \/nope/);
  });

  it('validates against another document when given one', () => {
    const tiny = createContractValidator({
      document: {
        openapi: '3.1.0',
        paths: {
          '/x': { get: { operationId: 'x', responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } },
        },
        components: { schemas: { X: { type: 'object', required: ['a'] } } },
      },
    });
    expect(tiny.validateResponse({ method: 'get', path: '/x', status: 200, body: { a: 1 } }).error).toBeNull();
    expect(tiny.validateResponse({ method: 'get', path: '/x', status: 200, body: {} }).error).toMatch(/required property 'a'/);
    expect(tiny.schemaErrors('X', {})).not.toBeNull();
  });

  it('reads another document from a YAML file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-'));
    try {
      const file = join(dir, 'tiny.yaml');
      writeFileSync(file, "openapi: 3.1.0\npaths:\n  /y:\n    get:\n      operationId: y\n      responses:\n        '204': { description: none }\n");
      const tiny = createContractValidator({ specPath: file });
      expect(tiny.validateResponse({ method: 'get', path: '/y', status: 204, body: '' })).toEqual({ pathKey: '/y', operationId: 'y', error: null });
      expect(tiny.validateResponse({ method: 'get', path: '/y', status: 204, body: { a: 1 } }).error).toMatch(/declares no body but one was sent/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
