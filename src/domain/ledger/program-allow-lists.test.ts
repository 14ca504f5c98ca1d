import { describe, expect, it } from 'vitest';
import type { ProgramInfo } from './loaded-programs.ts';
import { programsKoraRefuses } from './program-allow-lists.ts';

const program = (programId: string, idl: string | null = null) => ({ programId, idl }) as ProgramInfo;

describe("the warning of programs Kora's allowed_programs leaves out", () => {
  it('names each left out, by its IDL name when it has one, and none that Kora allows', () => {
    expect(programsKoraRefuses([program('A', 'puppet'), program('B')], ['B'], 'docs/x.toml')).toEqual([
      "Kora's allowed_programs leaves out puppet (A): Kora refuses a transaction that calls it (the relay API sponsors it); " +
        'list it under [validation] allowed_programs in a --kora-config (docs/x.toml is an example)',
    ]);
    expect(programsKoraRefuses([program('A')], ['A'], 'docs/x.toml')).toEqual([]);
  });

  it('stays one short line for hundreds of programs: ten named, the rest counted', () => {
    const many = Array.from({ length: 300 }, (_, at) => program(`P${at}`));
    const [line] = programsKoraRefuses(many, [], 'docs/x.toml');
    expect(line).toContain('P0, P1, P2, P3, P4, P5, P6, P7, P8, P9 and 290 more: Kora refuses a transaction that calls them');
    expect(line!.length).toBeLessThan(400);
  });
});
