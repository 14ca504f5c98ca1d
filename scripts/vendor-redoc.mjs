#!/usr/bin/env node
// Copies Redoc's standalone bundle into assets/redoc/, the one file /docs serves, instead of depending on
// the `redoc` package (115 packages, 85 MB, for this file). Usage, to update it:
//   cd "$(mktemp -d)" && npm pack redoc@<version> && tar xzf redoc-*.tgz
//   node <repo>/scripts/vendor-redoc.mjs "$PWD/package"
// then update VERSION below and assets/redoc/README.md, and run test/e2e/docs-page.test.ts.
// One patch: the sidebar's "API docs by Redocly" logo is an <img> from cdn.redoc.ly, the page's only
// network fetch; it becomes an inline SVG, so that the page loads nothing but what the emulator serves.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = '2.5.4';
const LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const LOGO_INLINE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

const source = process.argv[2];
if (!source) throw new Error('usage: node scripts/vendor-redoc.mjs <unpacked redoc package directory>');
const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
if (manifest.version !== VERSION) throw new Error(`expected redoc ${VERSION}, found ${manifest.version}: update VERSION`);
const bundle = readFileSync(join(source, 'bundles/redoc.standalone.js'), 'utf8');
const occurrences = bundle.split(LOGO_URL).length - 1;
if (occurrences !== 1) throw new Error(`expected the logo URL once in the bundle, found it ${occurrences} times`);
const target = new URL('../assets/redoc/', import.meta.url);
writeFileSync(new URL('redoc.standalone.js', target), bundle.replace(LOGO_URL, LOGO_INLINE));
copyFileSync(join(source, 'bundles/redoc.standalone.js.LICENSE.txt'), new URL('redoc.standalone.js.LICENSE.txt', target));
copyFileSync(join(source, 'LICENSE'), new URL('LICENSE', target));
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
console.log(`redoc ${VERSION}: upstream bundle sha256 ${sha256(bundle)}, patched ${sha256(readFileSync(new URL('redoc.standalone.js', target)))}`);
