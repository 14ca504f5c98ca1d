/**
 * fast-check arbitraries for values a JSON Schema of openapi/relay.yaml allows: the subset the
 * contract uses (types, enum/const, pattern, lengths, bounds, formats, properties/required, items,
 * allOf/oneOf/anyOf, `not` with `required`). A value drawn here is valid by the schema; what it
 * means to the emulator is the test's business.
 */
import fc from 'fast-check';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';

type Json = Record<string, any>;

export interface SchemaArbitraryOptions {
  /** Follows `$ref`s. */
  deref: (node: Json) => Json;
  /** Values to draw from, as well as random ones, for a property of this name (fixture keys, known apps): most random values reach only the first check. */
  known?: (name: string) => unknown[] | undefined;
}

const MAX_INTEGER = 2 ** 40;

/** An arbitrary of values valid against `schema`. */
export function schemaArbitrary(schema: Json, options: SchemaArbitraryOptions, name = ''): fc.Arbitrary<unknown> {
  const resolved = options.deref(schema);
  const drawn = draw(resolved, options, name);
  const known = options.known?.(name);
  return known && known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: drawn }) : drawn;
}

function draw(schema: Json, options: SchemaArbitraryOptions, name: string): fc.Arbitrary<unknown> {
  if (schema.allOf) {
    const parts = (schema.allOf as Json[]).map((part) => options.deref(part));
    return objectOf(
      {
        ...mergeAll(
          parts.filter((part) => !part.if),
          schema,
        ),
        conditionals: parts.filter((part) => part.if),
      },
      options,
    );
  }
  if (schema.oneOf || schema.anyOf) return fc.oneof(...(schema.oneOf ?? schema.anyOf).map((part: Json) => schemaArbitrary(part, options, name)));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const types: string[] = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : schema.properties
        ? ['object']
        : ['string', 'integer', 'boolean', 'null'];
  return fc.oneof(...types.map((type) => ofType(type, schema, options)));
}

function ofType(type: string, schema: Json, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? -MAX_INTEGER;
      const max = schema.maximum ?? MAX_INTEGER;
      // Bounds are where contracts and servers disagree: draw them often.
      return fc.oneof(
        fc.integer({ min: Math.max(min, -MAX_INTEGER), max: Math.min(max, MAX_INTEGER) }),
        fc.constantFrom(...[min, max, min + 1].filter((value) => value >= min && value <= max && Number.isSafeInteger(value))),
      );
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringOf(schema);
    case 'array':
      return fc.array(schema.items ? schemaArbitrary(schema.items, options) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return objectOf(schema, options);
    default:
      throw new Error(`schemaArbitrary: type ${type} is not supported`);
  }
}

function stringOf(schema: Json): fc.Arbitrary<string> {
  if (schema.format === 'solana-address') return fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bs58.encode(bytes));
  if (schema.format === 'solana-signature') return fc.uint8Array({ minLength: 64, maxLength: 64 }).map((bytes) => bs58.encode(bytes));
  if (schema.format === 'base64-padded') return fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64'));
  if (schema.format === 'date-time') return fc.date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 40);
  const text: fc.Arbitrary<string> = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern))
    : fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 40) });
  return text.filter((value) => [...value].length >= minLength && [...value].length <= maxLength);
}

function objectOf(schema: Json, options: SchemaArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Json> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const forbidden: string[][] = (schema.not?.required ? [schema.not.required] : []) as string[][];
  const entries = Object.entries(properties).map(([key, property]) => [key, schemaArbitrary(property, options, key)] as const);
  const model = Object.fromEntries(entries);
  const requiredKeys = [...required].filter((key) => key in model);
  return fc
    .record(model, { requiredKeys })
    .filter((value) => forbidden.every((together) => !together.every((key) => key in value)))
    .filter((value) =>
      ((schema.conditionals ?? []) as Json[]).every((rule) => !matchesConsts(rule.if, value) || (rule.then.required as string[]).every((key) => key in value)),
    )
    .filter((value) =>
      schema.dependentRequired
        ? Object.entries(schema.dependentRequired as Record<string, string[]>).every(([key, needs]) => !(key in value) || needs.every((need) => need in value))
        : true,
    );
}

/** True when `value` has every `const` an `if: { properties: { key: { const } } }` names. */
function matchesConsts(condition: Json, value: Record<string, unknown>): boolean {
  return Object.entries((condition.properties ?? {}) as Record<string, Json>).every(([key, rule]) => !('const' in rule) || value[key] === rule.const);
}

/** The allOf parts of an object schema as one: properties and required lists joined. */
function mergeAll(parts: Json[], outer: Json): Json {
  const merged: Json = {
    type: 'object',
    properties: { ...(outer.properties ?? {}) },
    required: [...(outer.required ?? [])],
    not: outer.not,
    dependentRequired: outer.dependentRequired,
  };
  for (const part of parts) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
  }
  return merged;
}

/** A fresh base58 key, for tests that want one outside the arbitraries. */
export function randomAddress(): string {
  return Keypair.generate().publicKey.toBase58();
}
