import { PACKAGE_MANIFEST } from './assets.ts';

/**
 * The emulator's version, from package.json. A module of its own, importing nothing heavy, so that
 * `relay-emulator --version` loads nothing else.
 */
export const EMULATOR_VERSION: string = PACKAGE_MANIFEST.version;
