/**
 * A server in its own process, so that the load generator does not share its event loop:
 * `bare` is a node:http server that reads the body and answers a fixed JSON body; `calibration`
 * is the same server spinning the given microseconds of CPU per request (what a known amount of extra
 * work does to the ratio on this machine); `emulator` is `startServer` as
 * `relay-emulator start` runs it (`journal-off` with the request journal disabled); `adapter`
 * is @hono/node-server mounting a fetch that answers at once (the floor of a fetch-based server).
 * Prints the port on stdout, serves until killed.
 */
import { serve } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { respond } from '../src/base/http/respond.ts';
import { startServer } from '../src/index.ts';

const mode = process.argv[2];
if (mode === 'bare' || mode === 'calibration') {
  // Milliseconds of busy CPU per request: argv[3] microseconds for `calibration`, none for `bare`.
  const spin = mode === 'calibration' ? Number(process.argv[3]) / 1000 : 0;
  const body = JSON.stringify({ RpcUrl: 'http://127.0.0.1/rpc', FeePayer: '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', ok: true });
  // Reads the request body, if any, before answering: a POST baseline must do what a POST route does.
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      for (const until = performance.now() + spin; spin > 0 && performance.now() < until; );
      JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else if (mode === 'adapter') {
  // The floor of the design: @hono/node-server mounting a fetch function that answers at once.
  const body = JSON.stringify({ status: 'ok' });
  const server = serve({ fetch: async () => respond(body, { headers: { 'Content-Type': 'application/json' } }), port: 0, hostname: '127.0.0.1' }) as Server;
  server.once('listening', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else {
  const server = await startServer({ port: 0, emulator: mode === 'journal-off' ? { journalLimit: 0 } : {} });
  process.stdout.write(`${server.port}\n`);
}
