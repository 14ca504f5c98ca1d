import { resolveRef, type JsonSchema, type OpenApiParameter } from './document.ts';

/**
 * The binding keywords of openapi/relay.yaml, as ASP.NET's model binding would apply them before
 * any validation: names matched case-insensitively or through `x-aliases`, `x-empty-as-absent`
 * body properties, query values coerced to the schema's type, and `x-clamp: { minimum }`.
 * Pure functions of the contract; the request binder (binding.ts) runs them, then validates.
 */

interface BodyName {
  canonical: string;
  /** 0 for an alias, 1 for the name itself. */
  rank: number;
}

/** How an operation's JSON body binds: which raw names reach which property, which `""` are absent. */
export interface BodyBinding {
  names: Map<string, BodyName>;
  /** Body properties whose empty string binds as absent. */
  emptyAsAbsent: Set<string>;
}

/** A body's binding from its schema's properties (name → schema). */
export function bodyBindingOf(properties: [string, JsonSchema][]): BodyBinding {
  return {
    names: new Map(
      properties.flatMap(([name, schema]) => [
        ...aliasesOf(schema).map((alias): [string, BodyName] => [alias.toLowerCase(), { canonical: name, rank: 0 }]),
        [name.toLowerCase(), { canonical: name, rank: 1 }] as [string, BodyName],
      ]),
    ),
    emptyAsAbsent: new Set(properties.filter(([, schema]) => schema['x-empty-as-absent'] === true).map(([name]) => name)),
  };
}

/** A JSON object's properties under the contract's names; unknown names are kept as sent. */
export function bindBodyNames(raw: object, binding: BodyBinding): Record<string, unknown> {
  const canonical: Record<string, unknown> = {};
  const ranks = new Map<string, number>();
  for (const [key, value] of Object.entries(raw)) {
    const bound = binding.names.get(key.toLowerCase());
    const name = bound?.canonical ?? key;
    // The name in its exact case wins over the name in another case, which wins over an alias.
    const rank = bound ? bound.rank * 2 + (key === name ? 1 : 0) : 3;
    if ((ranks.get(name) ?? -1) >= rank) continue;
    ranks.set(name, rank);
    if (binding.emptyAsAbsent.has(name) && value === '') delete canonical[name];
    else canonical[name] = value;
  }
  return canonical;
}

/** The lower-cased query names a parameter binds from: its own and its `x-aliases`. */
export function queryNamesOf(parameter: OpenApiParameter): Set<string> {
  return new Set([parameter.name, ...(parameter['x-aliases'] ?? [])].map((name) => name.toLowerCase()));
}

/** A parameter's `x-clamp` minimum, or null. */
export function clampMinimumOf(parameter: OpenApiParameter): number | null {
  const clamp = (parameter as { 'x-clamp'?: { minimum?: unknown } })['x-clamp'];
  return typeof clamp?.minimum === 'number' ? clamp.minimum : null;
}

/** A query value as the schema's type, or the text itself when it is not one (validation then refuses it). */
export function coerce(raw: string, schema: JsonSchema): unknown {
  const resolved = resolveRef<JsonSchema>(schema);
  const type = resolved.type;
  if (type === 'integer') return /^-?\d+$/.test(raw) && (Number.isSafeInteger(Number(raw)) || pastBounds(Number(raw), resolved)) ? Number(raw) : raw;
  if (type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

/** An integer too large to read exactly still binds when it is past the schema's bounds anyway, so that the answer names the bound. */
function pastBounds(value: number, schema: JsonSchema): boolean {
  const { minimum, maximum } = schema as { minimum?: unknown; maximum?: unknown };
  return (typeof maximum === 'number' && value > maximum) || (typeof minimum === 'number' && value < minimum);
}

function aliasesOf(schema: JsonSchema): string[] {
  const aliases = schema['x-aliases'];
  return Array.isArray(aliases) ? aliases.filter((alias): alias is string => typeof alias === 'string') : [];
}
