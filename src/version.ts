import { readFileSync } from 'node:fs';

/** The emulator's version, from package.json (read once, at import). */
export const EMULATOR_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
