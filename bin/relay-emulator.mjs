#!/usr/bin/env node
// The relay-emulator command: the compiled CLI in dist/ (the published package ships it; in a clone of
// the repository, `npm run build` makes it, and `npm start` runs the sources instead).
import module from 'node:module';

// Node ≥ 22.1 keeps the code it compiled in the OS's temp folder, and a later start compiles none of it
// again (start to ready 792 → 659 ms on Node 22, issue 46); Node 20 has no such cache, and this does nothing there.
module.enableCompileCache?.();
let cli;
try {
  cli = await import('../dist/adapters/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/adapters/cli/main.js')) throw error;
  process.stderr.write('relay-emulator: dist/ is missing. In a clone of the repository, run `npm run build` first (or `npm start`, which runs the sources).\n');
  process.exit(1);
}
cli.run(process.argv.slice(2));
