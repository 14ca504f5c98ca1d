/**
 * `relay-emulator/schemas`: the zod schemas of the files an emulator reads, built over the zod the
 * consumer imports. fixtures/apps.json's was `appsFileSchema` of the package's root until 0.1: it
 * moved here so that `import 'relay-emulator'` does not load zod (~75 ms of a cold start, issue 46;
 * the emulator checks its apps file without it: src/interfaces/legacy/apps-file.ts).
 */
import { z } from 'zod';
import { appsFileSchemaOf } from './interfaces/legacy/apps-file-schema.ts';

/** fixtures/apps.json: an array of legacy apps (`createRelayEmulator({ fixtures: { extra: { apps } } })`), each unique by environment and index. */
export const appsFileSchema = appsFileSchemaOf(z);
export type { AppsFile, ParsedAppsFile } from './interfaces/legacy/apps-file-schema.ts';
