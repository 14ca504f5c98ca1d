/**
 * Every code block of README.md is run, as written, by a test: this names which one runs each, and
 * fails on a block no test runs (a new snippet needs its runner first).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from './support/readme.ts';

/** The heading a block sits under → where it is run. */
const RUNNERS: Record<string, string> = {
  'Quick start': 'npm start: test/e2e/cli-runner.test.ts (stopped by SIGTERM and by Ctrl+C); npm ci and npm test: .ci/run',
  'Hello relay examples': 'test/e2e/examples.test.ts, each line against the emulator started as npm start starts it',
  'Install in your project': 'test/package/package.test.ts, through sh beside a link to the repository (npm ci: .ci/run)',
  'In your tests (MSW)': 'test/package/package.test.ts, in vitest in a scratch project, with a static web3.js import',
  'On a port (CI, mobile, non-JS clients)': 'test/package/package.test.ts, through npx in the scratch project',
  'In CI (exec)': 'test/package/package.test.ts, through sh in the scratch project',
  'Your programs and accounts':
    'test/package/package.test.ts: the clone line through sh in the scratch project, mainnet-beta replaced by a local cluster; the emulator line ' +
    'as written; the anchor build line, which needs a toolchain, is checked as written and what it leaves is made there',
  'A drop-in for solana-test-validator (anchor test, Surfpool, scripts)':
    'test/package/anchor-cli.test.ts: the shims and anchor test lines through sh in a real Anchor workspace with the packed tarball installed; ' +
    "the light line, whose CLI downloads its prover and indexer, is checked as written (Light's flags: test/package/light-protocol.engines.test.ts)",
  'Sponsor costs in CI': 'test/package/sponsor-costs.test.ts: the config, as written, in a scratch project that installed the packed tarball',
  'Sponsor costs in a GitHub Actions workflow': 'test/package/sponsor-costs.test.ts: each run line through sh in that scratch project',
  'Mainnet accounts': 'test/package/clone.test.ts: through sh, mainnet-beta replaced by a local cluster and the placeholders by its accounts',
  'Conformance kit': 'test/package/package.test.ts, through sh in the scratch project',
  'In the browser (Playwright and a test wallet)':
    'test/package/playwright-dapp.test.ts: appended to examples/dapp/tests/send.spec.mjs (its imports, test.use and beforeEach), ' +
    'run by npx playwright test',
  "Kora's JSON-RPC": 'test/package/package.test.ts, through sh in the scratch project (its npm test asks Kora for getConfig at port 8080)',
};

describe('README.md code blocks', () => {
  it('each has a runner, one block per heading', () => {
    const blocks = readmeBlocks();
    expect(blocks.map((block) => block.heading).filter((heading) => !(heading in RUNNERS))).toEqual([]);
    expect(blocks.map((block) => block.heading).sort()).toEqual(Object.keys(RUNNERS).sort());
  });

  it('the quick start’s npm ci and npm test are scripts, and .ci/run runs npm ci and the whole suite the README names', () => {
    const quickStart = readmeBlocks().find((block) => block.heading === 'Quick start')!.code;
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    for (const command of quickStart.matchAll(/^npm ci && (npm \w+)/gm)) expect(['npm start', 'npm test']).toContain(command[1]);
    expect(ci).toContain('npm ci');
    expect(ci).toContain('npm run test:all');
    const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['test:all']).toBe('vitest run');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const part of ['test:all', 'test:e2e', 'test:package', 'test:engines']) {
      expect(scripts[part], part).toBeDefined();
      expect(readme).toContain(`npm run ${part}`);
    }
  });
});
