import { readFileSync } from 'node:fs';

/**
 * The emulator's version, from package.json: one level up from src/ and from dist/ alike. A module of
 * its own, importing nothing else, so that `relay-emulator --version` loads nothing heavy.
 */
export const EMULATOR_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
