import type { components } from '../../../generated/relay.ts';
import { decodeBase58 } from '../../../base/crypto/base58.ts';
import type { AppProgramNames } from '../../rpc/program-errors.ts';

type IdlDecoded = components['schemas']['EmulatorRelayDetail']['idlInstructions'];

interface Unparsed {
  programId?: unknown;
  accounts?: unknown;
  data?: unknown;
}

/**
 * The instructions of the app's programs that their IDLs decode, top-level and inner, from a
 * transaction and meta as getTransaction renders them in jsonParsed (where an app program's
 * instruction keeps its accounts and base58 data): the detail view's `idlInstructions`.
 */
export function idlDecoded(transaction: Record<string, unknown> | null, meta: Record<string, unknown> | null, app: AppProgramNames): IdlDecoded {
  const topLevel = ((transaction?.message as { instructions?: Unparsed[] } | undefined)?.instructions ?? []).map((ix, at) => ({ ix, at, inner: null }));
  const inner = ((meta?.innerInstructions as { index: number; instructions: Unparsed[] }[] | null | undefined) ?? []).flatMap((group) =>
    group.instructions.map((ix, place) => ({ ix, at: group.index, inner: place + 1 })),
  );
  return [...topLevel, ...inner].flatMap(({ ix, at, inner }) => {
    if (typeof ix.programId !== 'string' || typeof ix.data !== 'string' || !Array.isArray(ix.accounts)) return [];
    const program = app.programName(ix.programId);
    const data = decodeBase58(ix.data);
    const decoded = program === undefined || data === null ? undefined : app.decodeInstruction(ix.programId, data, ix.accounts as string[]);
    return decoded ? [{ instruction: at + 1, inner, program: program!, ...decoded }] : [];
  });
}
