/**
 * History scaling: POST /Account/gethistory p50 for one wallet when the index holds 100,000
 * transactions, against the same when it holds 1,000. The entries are filed straight into the
 * emulator's HistoryIndex (the read path is what is measured; processing 100k real transfers
 * would take minutes and measure the ledger instead). The measured wallet is in every entry: the
 * worst case for a scan.
 */
import { Keypair } from '@solana/web3.js';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import type { HistoryMeasurement } from './figures.ts';

/** An emulator whose history index holds `indexSize` entries, all naming one wallet. */
async function filledEmulator(indexSize: number): Promise<{ emulator: RelayEmulator; wallet: string }> {
  const emulator = await createRelayEmulator();
  const wallet = Keypair.generate().publicKey.toBase58();
  for (let slot = 1; slot <= indexSize; slot += 1) {
    const signature = `sig${slot}`.padEnd(88, '1');
    emulator.services.history.add({ signature, slot, blockTime: 1_767_225_600 + slot, err: null, memo: null }, [wallet, `other${slot % 97}`]);
  }
  return { emulator, wallet };
}

async function timeHistoryRequest({ emulator, wallet }: { emulator: RelayEmulator; wallet: string }, index: number): Promise<number> {
  const page = 1 + (index % 5);
  const started = performance.now();
  const response = await emulator.fetch(
    new Request(`${emulator.config.baseUrl}/Account/gethistory?WalletAddress=${wallet}&PageNumber=${page}&PageSize=20`, {
      method: 'POST',
      headers: { 'X-API-Key': emulator.config.apiKey },
    }),
  );
  await response.json();
  return performance.now() - started;
}

/** Times the requests against both index sizes; historyFigure (figures.ts) makes the figure. */
export async function measureHistory(options: { small: number; large: number; requests: number }): Promise<HistoryMeasurement> {
  // Both emulators live side by side and take turns, request by request: the two sides see the
  // same machine, the same heap (and so the same garbage collection), and the same JIT state.
  const small = await filledEmulator(options.small);
  const large = await filledEmulator(options.large);
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  try {
    for (let index = 0; index < 20; index += 1) {
      await timeHistoryRequest(small, index); // warm-up: JIT and schema compilation
      await timeHistoryRequest(large, index);
    }
    for (let index = 0; index < options.requests; index += 1) {
      smallTimes.push(await timeHistoryRequest(small, index));
      largeTimes.push(await timeHistoryRequest(large, index));
    }
  } finally {
    await Promise.all([small.emulator.close(), large.emulator.close()]);
  }
  return { small: options.small, large: options.large, smallMs: smallTimes, largeMs: largeTimes };
}
