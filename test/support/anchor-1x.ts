/**
 * Anchor 1.x's own CLI (`anchor`, a Rust binary), made runnable on these machines for the package
 * tests that run `anchor test`, `anchor localnet` and `anchor account` against the emulator's shims.
 *
 * Why this is needed: npm's `@anchor-lang/cli` 1.0.1 ships one prebuilt x86_64 Linux binary,
 * `package/anchor` (beside `anchor.js`, a Node wrapper that only spawns it), linked against glibc
 * 2.39 (it needs the GLIBC_2.39 symbol version). These machines run Debian bookworm, glibc 2.36,
 * where it stops at "version `GLIBC_2.39' not found". Debian trixie's `libc6` (2.41) and
 * `libgcc-s1` have what it needs, so:
 *
 * - the two packages are fetched with `apt-get download` under a private apt configuration (its own
 *   sources.list naming trixie on the system's Debian mirror, its own package lists and cache, no
 *   pinning): the system's sources, lists and installed libc are left untouched, and no root is needed;
 * - they are unpacked with `dpkg-deb -x` into a folder of the cache, never installed;
 * - a copy of the binary gets trixie's dynamic loader as its interpreter and trixie's library folder
 *   as its RPATH, by `patchelf` (the system release's own, fetched and unpacked the same way).
 *
 * Only Anchor loads that libc: nothing is set in the environment, so the programs it spawns (the
 * shims, node, mocha) keep the system's. The result is kept per Anchor version in
 * `node_modules/.cache/relay-emulator-anchor-1x/<version>/bin/anchor` (a folder of its own, to put
 * first on PATH), built in a temporary folder beside it and renamed into place, so two vitest workers
 * never see half of one. Where the binary runs as shipped (glibc 2.39 or later), it is only copied.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '1.0.1';
const PACKAGE = `@anchor-lang/cli@${VERSION}`;
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(REPO, 'node_modules/.cache/relay-emulator-anchor-1x');
const MINUTE = 60_000;
/** Where trixie (merged /usr) puts the loader and the libraries, inside the unpacked packages. */
const LIBS = 'usr/lib/x86_64-linux-gnu';
const LOADER = `${LIBS}/ld-linux-x86-64.so.2`;
const FALLBACK_MIRROR = 'http://deb.debian.org/debian';
const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

export type AnchorOneX = { bin: string; version: string } | { skip: string };

/** Thrown inside the preparation with the one-line reason the test reports as its skip. */
class Skip extends Error {}

/** A working `anchor` 1.0.1: from the cache, or prepared once (10 to 20 s here, most of it downloads; a cached call, one `anchor --version`, under 0.1 s). */
export async function anchorOneX(): Promise<AnchorOneX> {
  if (platform() !== 'linux' || arch() !== 'x64') return { skip: `@anchor-lang/cli ships an x86_64 Linux binary only (this is ${platform()} ${arch()})` };
  const home = join(CACHE, VERSION);
  const bin = join(home, 'bin/anchor');
  const stale = existsSync(bin);
  const cached = await versionOf(bin);
  if (cached === `anchor-cli ${VERSION}`) return { bin, version: cached };
  // A copy that does not run (its libraries removed, the repository moved): made anew. Only one seen
  // before the check: a worker's fresh copy renamed in since then is never removed.
  if (stale) rmSync(home, { recursive: true, force: true });
  try {
    await prepare(home);
  } catch (error) {
    if (error instanceof Skip) return { skip: error.message };
    throw error;
  }
  const version = await versionOf(bin);
  if (version !== `anchor-cli ${VERSION}`) return { skip: `the prepared ${bin} does not run: ${version ?? 'no output'}` };
  return { bin, version };
}

/** Builds `home` in a temporary folder beside it, then renames it into place (or keeps the one another worker renamed first). */
async function prepare(home: string): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const build = mkdtempSync(join(CACHE, `.build-${VERSION}-`));
  // mkdtemp makes it 0700: the renamed folder is read by whoever runs the tests.
  chmodSync(build, 0o755);
  const downloads = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-1x-'));
  try {
    const shipped = await packedBinary(downloads);
    const bin = join(build, 'bin/anchor');
    mkdirSync(join(build, 'bin'));
    copyFileSync(shipped, bin);
    chmodSync(bin, 0o755);
    // glibc 2.39 or later on this machine: the binary runs as shipped.
    if ((await versionOf(bin)) !== `anchor-cli ${VERSION}`) await bringTrixieLibc(build, home, downloads);
    try {
      renameSync(build, home);
    } catch {
      // Another worker renamed its copy first: use that one.
    }
  } finally {
    rmSync(build, { recursive: true, force: true });
    rmSync(downloads, { recursive: true, force: true });
  }
}

/** `npm pack @anchor-lang/cli@1.0.1` in `work`, unpacked: the path of the shipped binary, `package/anchor`. */
async function packedBinary(work: string): Promise<string> {
  // --json: the tarball's name, or npm's error in one line (its summary). One retry, so that no network is a skip in seconds.
  const packed = await tool('npm', ['pack', PACKAGE, '--json', '--loglevel=error', '--fetch-retries=1', '--no-audit', '--no-fund'], {
    cwd: work,
    timeoutMs: 3 * MINUTE,
  });
  const answer = parseJson(packed.stdout) as { filename?: string }[] | { error?: { summary?: string } } | undefined;
  const filename = Array.isArray(answer) ? answer[0]?.filename : undefined;
  if (!packed.ok || filename === undefined) {
    const why = (!Array.isArray(answer) && answer?.error?.summary) || reason(packed.output);
    throw new Skip(`npm pack ${PACKAGE} failed (no network to npm?): ${why}`);
  }
  const unpacked = await tool('tar', ['-xzf', join(work, filename), '-C', work], { cwd: work, timeoutMs: MINUTE });
  if (!unpacked.ok) throw new Skip(`tar could not unpack ${filename}: ${reason(unpacked.output)}`);
  const binary = join(work, 'package/anchor');
  if (!existsSync(binary)) throw new Skip(`${PACKAGE} no longer ships package/anchor`);
  return binary;
}

/**
 * Unpacks trixie's libc6 and libgcc-s1 into `build/libc`, and points `build/bin/anchor` at them: its
 * interpreter at the loader's final path (under `home`, where `build` is renamed to), its RPATH
 * relative to itself. DT_RPATH, not RUNPATH: it comes before LD_LIBRARY_PATH, so a user's variable
 * cannot hand the binary bookworm's libc; and it also serves the libraries libc itself loads.
 */
async function bringTrixieLibc(build: string, home: string, downloads: string): Promise<void> {
  const codename = systemCodename();
  const mirror = debianMirror();
  const debs = await aptDownload(downloads, mirror, ['libc6/trixie', 'libgcc-s1/trixie', `patchelf/${codename}`], [codename, 'trixie']);
  const libc = join(build, 'libc');
  const tools = join(downloads, 'tools');
  for (const deb of debs) await unpack(deb, deb.includes('/patchelf_') ? tools : libc);
  // Which packages these are (name_version_arch.deb), for whoever wonders where the libc came from.
  writeFileSync(join(build, 'debs.txt'), `${mirror}\n${debs.map((deb) => basename(deb)).join('\n')}\n`);
  if (!existsSync(join(libc, LOADER))) throw new Skip(`trixie's libc6 has no ${LOADER} (its layout changed)`);
  const bin = join(build, 'bin/anchor');
  const patchelf = join(tools, 'usr/bin/patchelf');
  const patched = await tool(patchelf, ['--set-interpreter', join(home, 'libc', LOADER), '--force-rpath', '--set-rpath', `$ORIGIN/../libc/${LIBS}`, bin], {
    cwd: build,
    timeoutMs: MINUTE,
  });
  if (!patched.ok) throw new Skip(`patchelf failed on ${bin}: ${reason(patched.output)}`);
  // Before the rename, through the loader's temporary path: the RPATH already finds the libraries.
  const loaded = await tool(join(libc, LOADER), [bin, '--version'], { cwd: build, timeoutMs: 30_000 });
  if (loaded.output.trim() !== `anchor-cli ${VERSION}`) throw new Skip(`anchor does not run with trixie's libc: ${reason(loaded.output)}`);
}

/**
 * `apt-get update` then `apt-get download PACKAGES` under a private configuration in `work`: a
 * sources.list of `suites` on `mirror`, empty sources.list.d and preferences.d, its own lists and
 * cache. The system's configuration in /etc/apt/apt.conf.d still applies (proxies, languages).
 * Resolves with the downloaded .deb files.
 */
async function aptDownload(work: string, mirror: string, packages: string[], suites: string[]): Promise<string[]> {
  const apt = join(work, 'apt');
  for (const folder of ['lists/partial', 'cache/archives/partial', 'sources.list.d', 'preferences.d', 'debs'])
    mkdirSync(join(apt, folder), { recursive: true });
  const lines = suites.map((suite) => `deb [signed-by=${KEYRING}] ${mirror} ${suite} main`);
  writeFileSync(join(apt, 'sources.list'), `${lines.join('\n')}\n`);
  const options = [
    ['Dir::Etc::sourcelist', join(apt, 'sources.list')],
    ['Dir::Etc::sourceparts', join(apt, 'sources.list.d')],
    ['Dir::Etc::preferences', join(apt, 'preferences')],
    ['Dir::Etc::preferencesparts', join(apt, 'preferences.d')],
    ['Dir::State::Lists', join(apt, 'lists')],
    ['Dir::Cache', join(apt, 'cache')],
    // As root, apt would hand the downloads to its _apt user, who cannot enter this private folder.
    ['APT::Sandbox::User', 'root'],
  ].flatMap(([name, value]) => ['-o', `${name}=${value}`]);
  // --error-on=any: without it, apt-get update exits 0 when a source cannot be fetched.
  const updated = await tool('apt-get', [...options, '-q', '--error-on=any', 'update'], { cwd: apt, timeoutMs: 4 * MINUTE });
  if (!updated.ok) throw new Skip(`apt-get update of ${suites.join(' and ')} from ${mirror} failed (no network to Debian?): ${reason(updated.output)}`);
  const debs = join(apt, 'debs');
  const downloaded = await tool('apt-get', [...options, '-q', 'download', ...packages], { cwd: debs, timeoutMs: 3 * MINUTE });
  if (!downloaded.ok) throw new Skip(`apt-get download ${packages.join(' ')} from ${mirror} failed: ${reason(downloaded.output)}`);
  return readdirSync(debs)
    .filter((name) => name.endsWith('.deb'))
    .map((name) => join(debs, name));
}

/** `dpkg-deb -x DEB INTO`: the package's files, without installing it. */
async function unpack(deb: string, into: string): Promise<void> {
  mkdirSync(into, { recursive: true });
  const unpacked = await tool('dpkg-deb', ['-x', deb, into], { cwd: into, timeoutMs: MINUTE });
  if (!unpacked.ok) throw new Skip(`dpkg-deb could not unpack ${deb}: ${reason(unpacked.output)}`);
}

/** The system's Debian release (bookworm), whose own patchelf runs here. */
function systemCodename(): string {
  const release = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const codename = /^VERSION_CODENAME=("?)([a-z]+)\1$/m.exec(release)?.[2];
  if (!codename || !/^ID(_LIKE)?=.*debian/m.test(release)) throw new Skip('this is not a Debian system (no Debian codename in /etc/os-release)');
  return codename;
}

/** The Debian archive the system's apt reads (its sources.list or sources.list.d), so this reaches the same mirror. */
function debianMirror(): string {
  const parts = existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((name) => `/etc/apt/sources.list.d/${name}`) : [];
  for (const file of ['/etc/apt/sources.list', ...parts.filter((file) => /\.(list|sources)$/.test(file))]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      // One-line `deb [options] URI suite…`, or deb822 `URIs: URI…`; comments skipped.
      const uris = /^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line)?.[1] ?? /^\s*URIs:\s*(.+)$/i.exec(line)?.[1];
      const archive = uris?.split(/\s+/).find((uri) => /^https?:\/\/[^/]+(\/.*)?\/debian\/?$/.test(uri));
      if (archive) return archive.replace(/\/$/, '');
    }
  }
  return FALLBACK_MIRROR;
}

/** `anchor --version`'s one line, or undefined when it does not run (missing, or its libc is too old). */
async function versionOf(bin: string): Promise<string | undefined> {
  if (!existsSync(bin)) return undefined;
  const ran = await tool(bin, ['--version'], { cwd: tmpdir(), timeoutMs: 30_000 });
  return ran.ok ? ran.output.trim() : undefined;
}

/** Runs `file` with `args` (no shell), killed after `timeoutMs`; never rejects: `ok` is exit code 0, `output` stdout then stderr. */
function tool(file: string, args: string[], options: { cwd: string; timeoutMs: number }): Promise<{ ok: boolean; stdout: string; output: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, timeout: options.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) => resolve({ ok: error === null, stdout, output: `${stdout}${stderr}` || String(error?.message ?? '') }),
    );
  });
}

/** A tool's failure in one line: apt's first error or warning (`E:`, `W:`), else the last line it printed. */
function reason(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.find((line) => /^[EW]: /.test(line)) ?? lines.at(-1) ?? 'no output';
}

/** `text` as JSON, or undefined when it is not. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
