#!/usr/bin/env node
// The relay-emulator command. The package ships TypeScript sources; tsx (a runtime dependency)
// compiles them on the fly, in this process, so signals and the exit code are the command's own.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
run(process.argv.slice(2));
