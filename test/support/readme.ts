import { readFileSync } from 'node:fs';

/** A fenced code block of README.md, under the `##` heading it appears in. */
export interface ReadmeBlock {
  heading: string;
  lang: string;
  code: string;
}

/** Every fenced code block of README.md, in order. */
export function readmeBlocks(): ReadmeBlock[] {
  const text = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => ({ at: match.index, title: match[1]! }));
  for (const match of text.matchAll(fence)) {
    heading = headings.filter((h) => h.at < match.index).at(-1)?.title ?? '';
    blocks.push({ heading, lang: match[1]!, code: match[2]! });
  }
  return blocks;
}

/** The one code block under `heading`; throws when there is not exactly one. */
export function readmeBlock(heading: string): ReadmeBlock {
  const found = readmeBlocks().filter((block) => block.heading === heading);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} code blocks under "## ${heading}", expected 1`);
  return found[0]!;
}
