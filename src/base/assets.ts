/**
 * Files the emulator reads at run time, outside src/ and dist/: one level up from src/ and from dist/
 * alike (tsc keeps every module's place), so the package finds them wherever it is installed.
 */
export const ASSETS = {
  /** Redoc's standalone bundle (assets/redoc/README.md says where it comes from). */
  redocScript: new URL('../../assets/redoc/redoc.standalone.js', import.meta.url),
  /** The web UI's page, scripts and styles (src/interfaces/ui reads them when first asked). */
  ui: new URL('../../assets/ui/', import.meta.url),
} as const;
