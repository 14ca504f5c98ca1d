import { readFile } from 'node:fs/promises';
import { ASSETS } from '../../base/assets.ts';

/**
 * The web UI's files (assets/ui/), found beside the package like Redoc's bundle (src/base/assets.ts), so
 * the packed package finds them wherever it is installed. Read when first asked for, then kept: an
 * emulator whose UI is never opened never reads them.
 */
const UI_ASSETS_DIR = ASSETS.ui;

const MEDIA_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};

/** Names a request may ask for: one flat file of a known kind, so no path can leave the folder. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|svg|html)$/;

export interface UiAsset {
  text: string;
  mediaType: string;
}

const loaded = new Map<string, Promise<UiAsset | null>>();

/** A file of assets/ui by name; null when the name is not an asset's or no such file exists. */
export function uiAsset(name: string): Promise<UiAsset | null> {
  const kind = ASSET_NAME.exec(name)?.[1];
  if (kind === undefined) return Promise.resolve(null);
  let asset = loaded.get(name);
  if (!asset) {
    asset = readFile(new URL(name, UI_ASSETS_DIR), 'utf8').then(
      (text) => ({ text, mediaType: MEDIA_TYPES[kind]! }),
      () => {
        loaded.delete(name); // Only files that exist are kept: unknown names must not grow the map.
        return null;
      },
    );
    loaded.set(name, asset);
  }
  return asset;
}

/** How many UI files were read so far (none until the UI is first opened). */
export function uiAssetsRead(): number {
  return loaded.size;
}
