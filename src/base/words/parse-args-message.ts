/**
 * node:util parseArgs's refusal as one line: some of its messages run to three ("Option '--x'
 * argument is ambiguous.\nDid you forget …?\nTo specify an option argument starting with a dash use
 * '--x=-XYZ'."), and every refusal of bad input here is one line.
 */
export function parseArgsMessage(error: unknown): string {
  return (error as Error).message
    .split('\n')
    .map((line) => line.trim().replace(/\.$/, ''))
    .filter(Boolean)
    .join('; ');
}
