/**
 * Server throughput over real HTTP with 10 concurrent connections (autocannon): GET /Transaction/config
 * and POST /Account/getaccountinfo through the emulator mounted on node's http server, against a
 * bare node:http server answering a fixed JSON body, in the same run.
 */
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createRelayEmulator } from '../src/index.ts';
import type { Figure } from './stats.ts';

async function requestsPerSecond(options: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 10, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function serverThroughput(durationSeconds: number): Promise<Figure[]> {
  const bare = createServer((_request, response) => {
    const body = JSON.stringify({ RpcUrl: 'http://127.0.0.1/rpc', FeePayer: '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', ok: true });
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
  });
  const barePort = await listening(bare);

  const emulator = await createRelayEmulator();
  const server = serve({ fetch: emulator.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}/api`;
  const headers = { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' };

  const bareRate = await requestsPerSecond({ url: `http://127.0.0.1:${barePort}/`, duration: durationSeconds });
  const configRate = await requestsPerSecond({ url: `${base}/Transaction/config`, headers, duration: durationSeconds });
  const infoRate = await requestsPerSecond({
    url: `${base}/Account/getaccountinfo`,
    method: 'POST',
    headers,
    body: JSON.stringify({ accountAddress: emulator.config.feePayer }),
    duration: durationSeconds,
  });

  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => bare.close(resolve));
  await emulator.close();
  const figure = (name: string, rate: number): Figure => ({
    name,
    measured: `${rate.toFixed(0)} req/s`,
    baseline: `${bareRate.toFixed(0)} req/s bare node:http`,
    ratio: rate / bareRate,
    target: '≥ 0.5',
    meets: rate / bareRate >= 0.5,
  });
  return [figure('GET /Transaction/config over HTTP', configRate), figure('POST /Account/getaccountinfo over HTTP', infoRate)];
}
