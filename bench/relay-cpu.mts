/**
 * The relay's CPU alone (issue 46 reports it again, issue 36's method): relay efficiency on one
 * engine, `rounds` rounds of `perRound` relayed transfers against the bare engine, as `npm run bench`
 * measures it.
 *
 *   node --import tsx bench/relay-cpu.mts [litesvm|bankrun] [rounds=7] [perRound=100]
 */
import type { EngineName } from '../src/domain/ledger/engines.ts';
import { relayEfficiencyFigures } from './figures.ts';
import { measureRelayEfficiency } from './relay-efficiency.ts';
import { formatTable } from './stats.ts';

const [engine = 'litesvm', rounds = '7', perRound = '100'] = process.argv.slice(2);
const measured = await measureRelayEfficiency(engine as EngineName, { rounds: Number(rounds), perRound: Number(perRound) });
process.stdout.write(`${formatTable(relayEfficiencyFigures(measured))}\n`);
