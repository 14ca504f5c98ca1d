// openapi/relay.json: openapi/relay.yaml parsed, as JSON, for the emulator to read at run time
// (`npm run generate` writes it; test/openapi-spec.test.ts checks it is not stale). The YAML stays the
// source of truth and what /openapi.yaml serves. Why: parsing the YAML took ~180 ms of every process's
// first bound request (~235 ms under the profiler), which each test file of a suite pays; JSON.parse
// of the same document takes a few (BENCHMARKS.md, issue 46).
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const source = new URL('../openapi/relay.yaml', import.meta.url);
const target = new URL('../openapi/relay.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(parse(readFileSync(source, 'utf8'), { uniqueKeys: false }))}\n`);
