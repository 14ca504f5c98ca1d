// No line of the code over 160 characters (biome.jsonc's lineWidth). Biome's formatter wraps what it
// can, but not a long string or comment, and it has no rule that reports one: this does, for
// `npm run lint`. Characters, not bytes: `→` is one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const WIDTH = 160;
const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'test', 'bench', 'examples', 'assets/ui', 'bin', 'scripts'],
  { encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => /\.(ts|mjs|js|cjs)$/.test(file) && !file.startsWith('src/generated/'));
const long = [];
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if ([...line].length > WIDTH) long.push(`${file}:${index + 1}: ${[...line].length} characters`);
    });
}
if (long.length > 0) {
  console.error(`${long.length} line(s) over ${WIDTH} characters:\n${long.join('\n')}`);
  process.exit(1);
}
console.log(`line width: ${files.length} files, none over ${WIDTH} characters`);
