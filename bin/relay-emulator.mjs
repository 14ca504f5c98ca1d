#!/usr/bin/env node
// The relay-emulator command: the compiled CLI in dist/ (the published package ships it; in a clone of
// the repository, `npm run build` makes it, and `npm start` runs the sources instead).
let cli;
try {
  cli = await import('../dist/adapters/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/adapters/cli/main.js')) throw error;
  process.stderr.write('relay-emulator: dist/ is missing. In a clone of the repository, run `npm run build` first (or `npm start`, which runs the sources).\n');
  process.exit(1);
}
cli.run(process.argv.slice(2));
