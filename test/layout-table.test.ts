/**
 * The README's layout table and dependency-cruiser's layers name every part of src/: a folder or a
 * root file added without its row, or outside every layer (where no rule would see its imports),
 * fails here (issue 35).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url);
/** src/'s folders as `src/<name>/` and its root modules as `src/<name>.ts`. */
const parts = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')))
  .map((entry) => (entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`))
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
    const block = config.slice(config.indexOf('const LAYERS = ['), config.indexOf('];', config.indexOf('const LAYERS = [')));
    const layered = new Set([...block.matchAll(/'([a-z-]+)'/g)].map((match) => match[1]!));
    // STATE_BASE stands for src/state/ (its base; core-parts and snapshots sit higher).
    if (block.includes('STATE_BASE')) layered.add('state');
    expect(parts.map((part) => part.replace(/^src\//, '').replace(/(\/|\.ts)$/, '')).filter((name) => !layered.has(name))).toEqual([]);
  });
});
