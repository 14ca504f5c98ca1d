/**
 * History scaling: POST /Account/gethistory p50 for one wallet when the index holds 100,000
 * transactions, against the same when it holds 1,000. The entries are filed straight into the
 * emulator's HistoryIndex (the read path is what is measured; processing 100k real transfers
 * would take minutes and measure the ledger instead). The measured wallet is in every entry: the
 * worst case for a scan.
 */
import { Keypair } from '@solana/web3.js';
import { createRelayEmulator } from '../src/index.ts';
import { median, type Figure } from './stats.ts';

async function p50(indexSize: number, requests: number): Promise<number> {
  const emulator = await createRelayEmulator();
  const wallet = Keypair.generate().publicKey.toBase58();
  for (let slot = 1; slot <= indexSize; slot += 1) {
    const signature = `sig${slot}`.padEnd(88, '1');
    await emulator.services.history.add({ signature, slot, blockTime: 1_767_225_600 + slot, err: null, memo: null }, [wallet, `other${slot % 97}`]);
  }
  const headers = { 'X-API-Key': emulator.config.apiKey };
  const times: number[] = [];
  for (let index = 0; index < requests; index += 1) {
    const page = 1 + (index % 5);
    const started = performance.now();
    const response = await emulator.fetch(new Request(`${emulator.config.baseUrl}/Account/gethistory?WalletAddress=${wallet}&PageNumber=${page}&PageSize=20`, { method: 'POST', headers }));
    await response.json();
    times.push(performance.now() - started);
  }
  await emulator.close();
  return median(times);
}

export async function historyScaling(options: { small: number; large: number; requests: number }): Promise<Figure> {
  await p50(options.small, 20); // warm-up: JIT and schema compilation
  const small = await p50(options.small, options.requests);
  const large = await p50(options.large, options.requests);
  const ratio = large / small;
  return {
    name: 'history p50 (large/small index)',
    measured: `${large.toFixed(3)} ms @ ${options.large}`,
    baseline: `${small.toFixed(3)} ms @ ${options.small}`,
    ratio,
    target: '≤ 1.5',
    meets: ratio <= 1.5,
  };
}
