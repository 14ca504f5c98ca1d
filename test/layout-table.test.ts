/**
 * The README's layout table and dependency-cruiser's layers name every part of src/: a folder or a
 * root file added without its row, or outside every layer (where no rule would see its imports),
 * fails here (issue 35).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url);
/** The homes whose folders are each a part of their own (an interface, an adapter, a part of the domain). */
const HOMES = ['base', 'domain', 'interfaces', 'adapters'];
/** The folders and non-test modules of a folder of src/, as `src/<path>/` and `src/<path>.ts`. */
const entries = (folder: string) =>
  readdirSync(new URL(folder, SRC), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')))
    .map((entry) => `src/${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`);
/** src/'s folders and root modules; for a home, its folders and root modules instead. */
const parts = entries('')
  .flatMap((part) => (HOMES.includes(part.slice(4, -1)) ? entries(part.slice(4)) : [part]))
  .sort();

describe('the map of src/', () => {
  it('has a row of the README’s layout table for every folder and root module', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Layout\n'));
    const named = new Set(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...line.split(' | ')[0]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)),
    );
    expect(parts.length).toBeGreaterThan(20);
    expect(parts.filter((part) => !named.has(part))).toEqual([]);
  });

  it('puts every folder and root module in a layer of .dependency-cruiser.cjs', () => {
    const config = readFileSync(new URL('../.dependency-cruiser.cjs', import.meta.url), 'utf8');
    // The layers, and the names of path patterns defined above them (a folder's base, `<folder>/(?!…)`).
    const block = config.slice(0, config.indexOf('];', config.indexOf('const LAYERS = [')));
    const layered = new Set([...block.matchAll(/'([a-z/-]+?)\/?(?:\(\?![^']*)?'/g)].map((match) => match[1]!));
    expect(
      parts
        .map((part) => part.replace(/^src\//, '').replace(/(\/|\.ts)$/, ''))
        .filter((name) => !layered.has(name) && ![...layered].some((entry) => entry.startsWith(`${name}/`))),
    ).toEqual([]);
  });
});
