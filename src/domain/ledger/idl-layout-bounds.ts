/**
 * Bounds on what Anchor's instruction coder is given and builds, so that an IDL (the app's own file,
 * or one copied from anywhere) cannot hang the request that first decodes with it. The coder builds
 * each argument's layout by expanding every named type where it is used, with no memory of the last
 * expansion (two fields of the next type, 40 deep: 2^40 layouts) and a linear search of `types` for
 * each name (50,000 types: 9 s); and it decodes a `Vec` of a type of no bytes (an empty struct, a
 * `[u8; 0]`) by looping as many times as the length the sender wrote (2^32 - 1). A realistic IDL
 * (Light's largest, 90 KB) is far inside these bounds.
 */

/** Type nodes the coder would build for all instructions, named types expanded where used. */
const MAX_TYPE_NODES = 100_000;
/** Named-type look-ups times the length of `types`, which each look-up searches. */
const MAX_LOOKUP_STEPS = 50_000_000;
/**
 * The longest array an instruction's data can hold: 10 KiB, what a CPI may pass (a transaction holds
 * less). The coder measures an array of elements of no bytes one element at a time as it builds it
 * (`[[u8; 0]; 1000000000]`: 4 s).
 */
const MAX_ARRAY_LENGTH = 10 * 1024;

interface Cost {
  nodes: number;
  lookups: number;
}

const NONE: Cost = { nodes: 0, lookups: 0 };
const INFINITE: Cost = { nodes: Number.POSITIVE_INFINITY, lookups: Number.POSITIVE_INFINITY };
const plus = (...costs: Cost[]): Cost => ({ nodes: costs.reduce((sum, c) => sum + c.nodes, 0), lookups: costs.reduce((sum, c) => sum + c.lookups, 0) });

/**
 * True when the coder would build too much for these instructions' arguments: past the bounds
 * above (an array longer than any instruction's data), or a named type that contains itself (the coder expands it until the stack overflows).
 */
export function idlTypesTooLarge(instructions: readonly unknown[], types: unknown): boolean {
  const list = Array.isArray(types) ? types : [];
  const definitions = new Map<string, unknown>();
  for (const definition of list) {
    if (isObject(definition) && typeof definition.name === 'string' && !definitions.has(definition.name)) {
      definitions.set(definition.name, definition.type);
    }
  }
  const named = new Map<string, Cost>();
  const fieldsCost = (fields: unknown): Cost =>
    Array.isArray(fields) ? plus(...fields.map((field) => costOf(isObject(field) && 'type' in field && 'name' in field ? field.type : field))) : NONE;
  const namedCost = (name: unknown): Cost => {
    if (typeof name !== 'string') return NONE;
    const known = named.get(name);
    if (known) return known;
    named.set(name, INFINITE); // Met again while expanding: it contains itself.
    const type = definitions.get(name);
    let cost = NONE;
    if (isObject(type)) {
      if (type.kind === 'struct') cost = fieldsCost(type.fields);
      else if (type.kind === 'enum' && Array.isArray(type.variants))
        cost = plus(...type.variants.map((variant) => fieldsCost(isObject(variant) ? variant.fields : undefined)));
      else if (type.kind === 'type') cost = costOf(type.alias);
    }
    named.set(name, cost);
    return cost;
  };
  const costOf = (type: unknown): Cost => {
    const one = { nodes: 1, lookups: 0 };
    if (!isObject(type)) return one;
    if ('option' in type) return plus(one, costOf(type.option));
    if ('coption' in type) return plus(one, costOf(type.coption));
    if ('vec' in type) return plus(one, costOf(type.vec));
    if ('array' in type) {
      if (!Array.isArray(type.array)) return one;
      return tooLong(type.array[1]) ? INFINITE : plus(one, costOf(type.array[0]));
    }
    if ('defined' in type) {
      const defined = type.defined;
      const generics = isObject(defined) && Array.isArray(defined.generics) ? defined.generics : [];
      if (generics.some((generic) => isObject(generic) && generic.kind === 'const' && tooLong(Number(generic.value)))) return INFINITE;
      const argumentsCost = plus(...generics.map((generic) => (isObject(generic) ? costOf(generic.type) : NONE)));
      return plus({ nodes: 1, lookups: 1 }, namedCost(isObject(defined) ? defined.name : defined), argumentsCost);
    }
    return one;
  };
  try {
    const total = plus(
      ...instructions.map((ix) => {
        const args = isObject(ix) && Array.isArray(ix.args) ? ix.args : [];
        return plus({ nodes: 1, lookups: 0 }, ...args.map((arg) => costOf(isObject(arg) ? arg.type : undefined)));
      }),
    );
    return total.nodes > MAX_TYPE_NODES || total.lookups * Math.max(1, list.length) > MAX_LOOKUP_STEPS;
  } catch {
    return true; // Types nested past the stack (100,000 `option`s deep): the coder's own expansion would overflow too.
  }
}

/**
 * True when a built layout holds a sequence (a `Vec`, an array) of elements of no bytes: decoding it
 * loops once per element the data claims, without reading a byte (Rust's borsh refuses such a `Vec`).
 */
export function loopsOverEmptyElements(layouts: Iterable<unknown>): boolean {
  const pending = [...layouts];
  while (pending.length > 0) {
    const layout = pending.pop();
    if (!isObject(layout)) continue;
    if (isObject(layout.elementLayout)) {
      if (layout.elementLayout.span === 0) return true;
      pending.push(layout.elementLayout);
    }
    if (isObject(layout.layout)) pending.push(layout.layout);
    if (Array.isArray(layout.fields)) pending.push(...layout.fields);
    if (isObject(layout.registry)) pending.push(...Object.values(layout.registry));
  }
  return false;
}

function tooLong(length: unknown): boolean {
  return typeof length === 'number' && !(length <= MAX_ARRAY_LENGTH);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
