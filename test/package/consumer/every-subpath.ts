// A consumer's TypeScript, checked by `tsc --noEmit` under module NodeNext (tsconfig.json beside it
// in the scratch project): every public subpath, and a few of the types each one exports.
import { createRelayEmulator, RelayError, type RelayEmulator, type RelayEmulatorOptions } from 'relay-emulator';
import { createHandlers, type HandlerUrls } from 'relay-emulator/msw';
import { startServer, createNodeListener, upgradeToPubSub, StateFile, type RunningServer } from 'relay-emulator/node';
import { runConformance, formatTable, type ConformanceReport } from 'relay-emulator/conformance';
import { sponsorCosts, type SponsorCostReport } from 'relay-emulator/vitest';
import { TestWallet, type WalletRequest } from 'relay-emulator/wallet';
import manifest from 'relay-emulator/package.json' with { type: 'json' };

const options: RelayEmulatorOptions = { baseUrl: 'https://relay.example.com/api', loopback: true };
const emulator: RelayEmulator = await createRelayEmulator(options);
const urls: HandlerUrls = { baseUrl: emulator.config.baseUrl, rpcUrl: emulator.config.rpcUrl, loopbackOrigin: emulator.loopbackOrigin };
const handlers = createHandlers(emulator.fetch, urls);
const server: RunningServer = await startServer({ port: 0, emulator: { rpcAuth: false } });
const report: ConformanceReport = await runConformance({ baseUrl: server.emulator.config.baseUrl, apiKey: server.emulator.config.apiKey });
const text: string = formatTable(report);
const version: string = manifest.version;
const plugin = sponsorCosts({ file: 'costs.json' });
const costs: SponsorCostReport | null = null;
const wallet = new TestWallet({ rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
const asked: WalletRequest[] = wallet.requests;
export const used = [handlers, text, version, plugin, costs, asked, createNodeListener, upgradeToPubSub, StateFile, new RelayError('VALIDATION_FAILED', 'x')];
