import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const build = (...args: string[]) => spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });

describe('scripts/build.mjs', () => {
  it('empties only a build folder of its own: /, .., src, a nested or unnamed folder are refused in one line, and nothing is removed', () => {
    for (const outdir of ['/', '..', '.', 'src', 'node_modules', 'x/y', '../dist']) {
      const ran = build('--outdir', outdir, '--no-declarations');
      expect(ran.status, outdir).toBe(1);
      expect(ran.stderr).toBe(`build: --outdir must be a build folder directly inside the repository (dist, .test-dist), not ${JSON.stringify(outdir)}\n`);
    }
    expect(build('--outdir').stderr).toBe('build: --outdir needs a folder\n');
    expect(build('--minify').stderr).toMatch(/^build: unknown option --minify/);
    expect(existsSync(`${ROOT}src/index.ts`)).toBe(true);
  });

  it('refuses a file of the repository as --outdir (package.json would have been deleted), and keeps it', () => {
    const name = `.build-outdir-probe-${process.pid}`;
    writeFileSync(`${ROOT}${name}`, 'kept\n');
    try {
      const ran = build('--outdir', name, '--no-declarations');
      expect(ran.status).toBe(1);
      expect(ran.stderr).toBe(`build: --outdir must be a build folder directly inside the repository (dist, .test-dist), not ${JSON.stringify(name)}\n`);
      expect(existsSync(`${ROOT}${name}`)).toBe(true);
    } finally {
      rmSync(`${ROOT}${name}`, { recursive: true, force: true });
    }
  });
});
