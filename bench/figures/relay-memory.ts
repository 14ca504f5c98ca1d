/** Relay memory: RSS per relayed transfer, per slot, and kept per closed emulator (bench/relay-memory.ts). */
import type { Figure } from '../stats.ts';
import { mb } from './shared.ts';

/** One engine's relay-memory run (bench/relay-memory-probe.ts): RSS in bytes before, after every `step` transfers, and after a reset. */
export interface RelayMemoryProbe {
  engine: string;
  transfers: number;
  step: number;
  clients: number;
  before: number;
  marks: number[];
  afterReset: number;
  /** The ledger's slot at the end: how many slots the transfers took. */
  slots: number;
  seconds: number;
  /** RSS around `slots` one-slot warps of a fresh emulator (a process of its own). */
  warps: { slots: number; before: number; after: number };
  /** RSS around `emulators` emulators made, warped `slotsEach` slots and closed, one after the other. */
  recreated: { emulators: number; slotsEach: number; before: number; after: number };
}

/** The growth target of a relayed transfer on the default engine, records and history included. */
export const MAX_KB_PER_TRANSFER = 15;

/** KB of RSS a relayed transfer adds, over the whole run. */
export function kbPerTransfer(probe: RelayMemoryProbe): number {
  return (probe.marks[probe.marks.length - 1]! - probe.before) / 1024 / probe.transfers;
}

/**
 * Growth below these is RSS noise (the allocator, a collection landing on one side): a ratio over
 * it says nothing, so the figure gives none (printed as a dash).
 */
export const NOISE_KB_PER_TRANSFER = 0.5;
export const NOISE_MB_OF_SLOTS = 2;

/** KB of RSS a one-slot warp adds. */
export function kbPerSlot(probe: RelayMemoryProbe): number {
  return (probe.warps.after - probe.warps.before) / 1024 / probe.warps.slots;
}

/**
 * Per engine: RSS growth per relayed transfer (at most 15 KB on the default engine; the others
 * are reported), what a slot costs, and what a closed emulator keeps of its slots (ratio: kept
 * over what its slots cost; 1 means closing gives nothing back).
 */
export function relayMemoryFigures(probes: RelayMemoryProbe[], defaultEngine: string): Figure[] {
  return probes.flatMap((probe) => {
    const perTransfer = kbPerTransfer(probe);
    const isDefault = probe.engine === defaultEngine;
    const perSlot = kbPerSlot(probe);
    const { emulators, slotsEach, before, after } = probe.recreated;
    const keptPerEmulator = (after - before) / emulators;
    const slotsCost = perSlot * 1024 * slotsEach;
    return [
      {
        name: `RSS per relayed transfer, ${probe.engine}`,
        measured: `${perTransfer.toFixed(1)} KB (${mb(probe.marks[probe.marks.length - 1]! - probe.before)} / ${probe.transfers})`,
        baseline: `${mb(probe.before)} before`,
        ratio: perTransfer / MAX_KB_PER_TRANSFER,
        target: isDefault ? `≤ ${MAX_KB_PER_TRANSFER} KB (ratio ≤ 1)` : 'report',
        meets: isDefault ? perTransfer <= MAX_KB_PER_TRANSFER : null,
      },
      {
        name: `RSS per slot, ${probe.engine}`,
        measured: `${perSlot.toFixed(1)} KB (${probe.warps.slots} one-slot warps)`,
        baseline: `${perTransfer.toFixed(1)} KB per transfer`,
        ratio: perTransfer >= NOISE_KB_PER_TRANSFER && perSlot > 0 ? perSlot / perTransfer : null,
        target: 'report',
        meets: null,
      },
      {
        name: `RSS kept per closed emulator, ${probe.engine}`,
        measured: `${mb(keptPerEmulator)} (${emulators} × ${slotsEach} slots)`,
        baseline: `${mb(slotsCost)} its slots cost`,
        ratio: slotsCost >= NOISE_MB_OF_SLOTS * 1024 * 1024 ? keptPerEmulator / slotsCost : null,
        target: 'report',
        meets: null,
        note:
          slotsCost >= NOISE_MB_OF_SLOTS * 1024 * 1024
            ? 'ratio ≥ 1: closing an engine gives back none of its slots (the start-up an engine costs comes on top); < 1: it gives some back'
            : `its slots cost under ${NOISE_MB_OF_SLOTS} MB, within RSS noise: there is nothing to give back, and no ratio`,
      },
    ];
  });
}

/** The run step by step: RSS after each `step` transfers, growth per transfer within the step, and after the reset. */
export function relayMemoryLines(probe: RelayMemoryProbe): string[] {
  const lines = [
    `${probe.engine}: ${probe.transfers} transfers by ${probe.clients} callers in ${probe.seconds.toFixed(1)} s, ${probe.slots} slots; RSS before ` +
      `${mb(probe.before)}`,
  ];
  let previous = probe.before;
  for (const [index, mark] of probe.marks.entries()) {
    const done = Math.min((index + 1) * probe.step, probe.transfers);
    const count = done - index * probe.step;
    lines.push(`  after ${String(done).padStart(6)}: ${mb(mark).padStart(9)}  (+${((mark - previous) / 1024 / count).toFixed(1)} KB per transfer)`);
    previous = mark;
  }
  lines.push(`  after reset:  ${mb(probe.afterReset).padStart(9)}`);
  lines.push(`  ${probe.warps.slots} one-slot warps: ${mb(probe.warps.after)} (+${kbPerSlot(probe).toFixed(1)} KB per slot)`);
  const { emulators, slotsEach, before, after } = probe.recreated;
  lines.push(`  ${emulators} emulators, ${slotsEach} slots each, closed: +${mb(after - before)} (${mb((after - before) / emulators)} kept per emulator)`);
  return lines;
}
