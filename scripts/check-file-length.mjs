// Small files, one idea each (CONTRIBUTING.md): a source file of src/ over 250 lines says on its
// first line why it is one file (`// Over 250 lines: …`), or is split. Tests and the generated
// types are exempt. For `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MOST = 250;
const REASON = '// Over 250 lines: ';
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.endsWith('.test.ts') && !file.startsWith('src/generated/'));
const unexplained = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MOST && !text.startsWith(REASON)) unexplained.push(`${file}: ${lines} lines, and its first line does not say why (${REASON}…)`);
}
if (unexplained.length > 0) {
  console.error(`${unexplained.length} file(s) over ${MOST} lines without a reason:\n${unexplained.join('\n')}`);
  process.exit(1);
}
console.log(`file length: ${files.length} files of src/, each ${MOST} lines or fewer or saying why`);
