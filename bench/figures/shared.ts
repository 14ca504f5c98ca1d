/** What the figures share: the engines they are made for, and bytes as megabytes. */

/** The engines the figures are made for, as bench modules name them. */
export type BenchEngine = 'bankrun' | 'litesvm';

/** Bytes as megabytes, one decimal. */
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
