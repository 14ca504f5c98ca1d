/**
 * Server throughput over real HTTP with 10 concurrent connections (autocannon): GET /Transaction/config
 * and POST /Account/getaccountinfo through the emulator's own server (`startServer`, as
 * `relay-emulator start` runs it), against a bare node:http server answering a fixed JSON body, in
 * the same run. Each server runs in its own process (bench/serve-child.ts) so that the load
 * generator never shares its event loop. Measured with the default request journal and without it.
 * Each figure is the median of per-round ratios, each taken between a server and its bare baseline
 * measured just before it (throughputFigures in figures.ts).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BASELINE_OF,
  THROUGHPUT_TARGETS,
  type ThroughputBaseline,
  type ThroughputMeasurement,
  type ThroughputRound,
  type ThroughputTarget,
} from './figures.ts';

const child = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const API_KEY = 'relay-emulator-dev-key';
const FEE_PAYER = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';
/**
 * Busy CPU the calibration server adds to the bare one per request. On a 2-core machine shared
 * with the load generator, a server slower than its client also pays for being woken per request,
 * so a little work costs much of the ratio; this figure shows how much, in the same run.
 */
const CALIBRATION_MICROS = 10;

async function requestsPerSecond(options: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 10, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Throughput, and the server's CPU microseconds per request: steadier than throughput on a noisy machine. */
async function measureServer(server: ChildProcess, options: autocannon.Options): Promise<{ rate: number; cpuMicros: number }> {
  const before = cpuSeconds(server.pid!);
  const result = await autocannon({ connections: 10, ...options });
  const used = cpuSeconds(server.pid!) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.average, cpuMicros: (used * 1e6) / Math.max(1, result.requests.total) };
}

async function serve(mode: 'bare' | 'calibration' | 'adapter' | 'emulator' | 'journal-off'): Promise<{ port: number; process: ChildProcess }> {
  const server = spawn(process.execPath, ['--import', 'tsx', child, mode, String(CALIBRATION_MICROS)], {
    env: { ...process.env, RUST_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout!.setEncoding('utf8');
  while (!output.includes('\n')) {
    const [chunk] = (await once(server.stdout!, 'data')) as [string];
    output += chunk;
  }
  return { port: Number(output.trim()), process: server };
}

async function stop(server: ChildProcess): Promise<void> {
  server.kill('SIGKILL');
  await once(server, 'exit');
}

type Target = ThroughputTarget;
type Baseline = ThroughputBaseline;

/**
 * Measures every server `rounds` times, each right after its bare baseline, so that each round
 * gives a *paired* ratio. This VM's speed swings several-fold within a minute; a ratio of medians
 * taken at different moments mixes those swings in, while two measurements seconds apart see the
 * same machine.
 */
export async function measureServerThroughput(durationSeconds: number, rounds = 7): Promise<ThroughputMeasurement> {
  // Every server is up at once, idle while another is measured.
  const [bare, calibration, adapter, journal, quiet] = await Promise.all([
    serve('bare'),
    serve('calibration'),
    serve('adapter'),
    serve('emulator'),
    serve('journal-off'),
  ]);
  const headers = { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' };
  const body = JSON.stringify({ accountAddress: FEE_PAYER });
  const options: Record<Target | Baseline, autocannon.Options> = {
    bare: { url: `http://127.0.0.1:${bare.port}/` },
    barePost: { url: `http://127.0.0.1:${bare.port}/`, method: 'POST', headers: { 'Content-Type': 'application/json' }, body },
    calibration: { url: `http://127.0.0.1:${calibration.port}/` },
    adapter: { url: `http://127.0.0.1:${adapter.port}/` },
    config: { url: `http://127.0.0.1:${journal.port}/api/Transaction/config`, headers },
    info: { url: `http://127.0.0.1:${journal.port}/api/Account/getaccountinfo`, method: 'POST', headers, body },
    quietConfig: { url: `http://127.0.0.1:${quiet.port}/api/Transaction/config`, headers },
    quietInfo: { url: `http://127.0.0.1:${quiet.port}/api/Account/getaccountinfo`, method: 'POST', headers, body },
  };
  const servers: Record<Target | Baseline, ChildProcess> = {
    bare: bare.process,
    barePost: bare.process,
    calibration: calibration.process,
    adapter: adapter.process,
    config: journal.process,
    info: journal.process,
    quietConfig: quiet.process,
    quietInfo: quiet.process,
  };
  const samples = Object.fromEntries(THROUGHPUT_TARGETS.map((target) => [target, [] as ThroughputRound[]])) as Record<Target, ThroughputRound[]>;
  try {
    for (const target of Object.values(options)) await requestsPerSecond({ ...target, duration: Math.min(1, durationSeconds) }); // warm-up
    for (let round = 0; round < rounds; round += 1) {
      for (const target of THROUGHPUT_TARGETS) {
        const baseline = BASELINE_OF[target];
        const base = await measureServer(servers[baseline], { ...options[baseline], duration: durationSeconds });
        const measured = await measureServer(servers[target], { ...options[target], duration: durationSeconds });
        samples[target].push({ rate: measured.rate, cpuMicros: measured.cpuMicros, baseRate: base.rate, baseCpuMicros: base.cpuMicros });
      }
    }
  } finally {
    await Promise.all([bare, calibration, adapter, journal, quiet].map((server) => stop(server.process)));
  }
  return { calibrationMicros: CALIBRATION_MICROS, rounds: samples };
}
