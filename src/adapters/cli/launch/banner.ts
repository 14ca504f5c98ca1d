import { EMULATOR_VERSION } from '../../../base/version.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serverWarnings } from './ready.ts';

export interface BannerFacts {
  server: RunningServer;
  stateFile: string | null;
  /** What the state file brought back, when there was one. */
  restored: { transactions: number; savedAt: string | null } | null;
}

/** What a developer needs to point an app, a curl or a CI job at the emulator. */
export function banner({ server, stateFile, restored }: BannerFacts): string {
  const { config } = server.emulator;
  const rows: [string, string][] = [
    ['Base URL', config.baseUrl],
    ['RPC URL', config.rpcUrl],
    ['PubSub', `${config.pubsubUrl ?? config.rpcUrl.replace(/^http/, 'ws')}${pubsubNote(server)}`],
    ['Kora', `${config.koraUrl} (Kora's JSON-RPC: the @solana/kora SDK's rpcUrl)`],
    ['Fee payer', config.feePayer],
    ['Engine', config.engine],
    ['API key', config.apiKey],
    [
      'Policy',
      `${config.policyProfile}${config.policyProfile === 'faithful' ? ' (sponsors what the vendor clients build; --policy strict refuses those shapes)' : ''}`,
    ],
    ['Web UI', server.adminToken === null ? `${server.origin}/` : `${server.origin}/?token=${encodeURIComponent(server.adminToken)}`],
    ['Docs', `${server.origin}/docs`],
    ['Controls', `${server.origin}/__emulator/… ${server.adminToken === null ? '(open: loopback bind)' : `(X-Admin-Token: ${server.adminToken})`}`],
  ];
  for (const program of server.emulator.services.programs.list()) {
    rows.push(['Program', `${program.programId} (${program.loader === 'upgradeable' ? 'upgradeable' : 'BPF Loader 2'}) ${program.path ?? ''}`.trimEnd()]);
  }
  const { dumps } = server.emulator.services.programs;
  if (dumps.length > 0) rows.push(['Accounts', `${dumps.length} loaded from account dumps`]);
  if (stateFile !== null) {
    const note = restored
      ? `restored ${restored.transactions} transaction(s) ${restored.savedAt === null ? 'from its journal' : `saved at ${restored.savedAt}`}`
      : 'new';
    rows.push(['State file', `${stateFile} (${note})`]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const warnings = serverWarnings(server).map((warning) => `WARNING: ${warning}`);
  const notes = server.emulator.notes.map((note) => `  ${note}`);
  return [
    `relay-emulator ${EMULATOR_VERSION} listening on ${server.host}:${server.port}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    ...notes,
    ...warnings,
    'Ctrl+C (SIGINT) or SIGTERM stops it.',
    '',
  ].join('\n');
}

/** Where else PubSub answers, and whether it needs the Token. */
function pubsubNote(server: RunningServer): string {
  const { config } = server.emulator;
  const where = config.pubsubUrl ? ' (web3.js and gill look there by themselves; the RPC port answers too)' : ' (the RPC port)';
  const token = config.rpcAuth === 'always' || (config.rpcAuth === 'remote' && !server.loopbackBind) ? ', ?token=<Token>' : '';
  return `${where}${token}`;
}
