/**
 * docs/testing-with-vitest.md names the engine a test gets by default, and says what the other one
 * costs (issue 45, item 20: it described bankrun as the default long after LiteSVM became it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE } from '../src/index.ts';

const page = readFileSync(new URL('../docs/testing-with-vitest.md', import.meta.url), 'utf8');
const NAMES = { litesvm: 'LiteSVM', bankrun: 'bankrun' } as const;

describe('docs/testing-with-vitest.md', () => {
  it('names the default engine as the code has it, and the other as the one to ask for', () => {
    const other = DEFAULT_ENGINE === 'litesvm' ? 'bankrun' : 'litesvm';
    expect(page).toContain(`${NAMES[DEFAULT_ENGINE]} is the default engine`);
    expect(page).toContain(`createRelayEmulator({ engine: '${other}' })`);
    expect(page).toContain(`RELAY_EMULATOR_ENGINE=${other}`);
    expect(page).not.toMatch(new RegExp(`first in a process \\(loads ${NAMES[other]}`));
  });
});
