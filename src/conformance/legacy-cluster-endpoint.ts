import { fail } from './check.ts';
import { describeResponse } from './describe-response.ts';
import type { TargetClient } from './target-client.ts';
import type { LegacyTarget } from './types.ts';

/** A legacy-only target's RPC: `environment.cluster.endpoint` of its app config (Kinetic's AppConfig). */
export async function legacyClusterEndpoint(client: TargetClient, legacy: LegacyTarget | undefined): Promise<string> {
  if (!legacy) fail('no RPC URL: give --rpc-url');
  const path = `/app/${encodeURIComponent(legacy.environment)}/${legacy.index}/config`;
  const response = await client.request({ method: 'GET', path, auth: 'none' });
  const endpoint = (response.json as { environment?: { cluster?: { endpoint?: unknown } } } | undefined)?.environment?.cluster?.endpoint;
  if (!response.ok || typeof endpoint !== 'string') fail(`no RPC URL: give --rpc-url (GET ${path} → ${describeResponse(response)})`);
  return endpoint;
}
