import { existsSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import type { CloneOptions } from '../../../domain/fixtures/clone-cache.ts';
import { clusterUrl } from '../../../domain/fixtures/cluster-url.ts';
import { START_FLAGS } from '../start/start-flags.ts';
import { UsageError } from './usage-error.ts';

// What start's flag values mean, each with its environment twin: lists, booleans, whole numbers,
// paths, and the flag groups that make one option (the clone flags, the Anchor workspace).

export type CloneListFlag = 'clone' | 'maybe-clone' | 'clone-upgradeable-program' | 'deep-clone-address-lookup-table';

/** --url and the clone flags (and their environment twins), or null when no clone is asked for. */
export function cloneOptions(values: Record<string, unknown>, env: NodeJS.ProcessEnv, url: string | undefined, cache: string | undefined): CloneOptions | null {
  const listOf = (flag: CloneListFlag) => list(values[flag] as string[] | undefined, env[START_FLAGS[flag].env]);
  const accounts = listOf('clone');
  const maybe = listOf('maybe-clone');
  const upgradeablePrograms = listOf('clone-upgradeable-program');
  const lookupTables = listOf('deep-clone-address-lookup-table');
  if (accounts.length + maybe.length + upgradeablePrograms.length + lookupTables.length === 0) return null;
  if (url === undefined) throw new UsageError('the --clone flags need --url, the cluster to fetch from');
  const refresh = values['refresh-clones'] === true || flagFromEnv('refresh-clones', env[START_FLAGS['refresh-clones'].env]);
  return { url: clusterUrl(url), accounts, maybe, upgradeablePrograms, lookupTables, ...(cache === undefined ? {} : { cache: resolve(cache) }), refresh };
}

/** --anchor DIR; else the working directory when it holds an Anchor.toml, unless --no-anchor (as anchor test finds its workspace). */
export function anchorWorkspace(named: string | undefined, off: boolean): string | null {
  if (named !== undefined && off) throw new UsageError('--anchor and --no-anchor: give one');
  if (named !== undefined) return resolve(named);
  return !off && existsSync('Anchor.toml') ? resolve('.') : null;
}

/** A list of paths in an environment variable, separated as PATH is (':' here, ';' on Windows). */
export function splitPaths(raw: string | undefined): string[] {
  return raw ? raw.split(delimiter).filter(Boolean) : [];
}

/** A boolean flag's environment twin: 1/true/yes set it, 0/false/no or empty leave it unset. */
export function flagFromEnv(flag: string, raw: string | undefined): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['', '0', 'false', 'no'].includes(value)) return false;
  throw new UsageError(`--${flag}'s environment twin must be 1, true, 0 or false, not "${raw}"`);
}

/** A repeatable flag's values, else its environment twin split at commas. */
export function list(flags: string[] | undefined, fromEnv: string | undefined): string[] {
  return (
    flags ??
    (fromEnv
      ? fromEnv
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [])
  );
}

export function integer(flag: string, raw: string | undefined, fallback: number, range: { min: number; max: number }): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--${flag} must be a whole number, not "${raw}"`);
  const value = Number(raw);
  if (value < range.min || value > range.max) throw new UsageError(`--${flag} must be between ${range.min} and ${range.max}, not ${value}`);
  return value;
}
