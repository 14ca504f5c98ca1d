import type { MethodTable } from './context.ts';
import { accountMethods } from './methods/accounts.ts';
import { blockhashAndFeeMethods } from './methods/blockhash-and-fees.ts';
import { blockMethods } from './methods/blocks.ts';
import { chainMethods } from './methods/chain.ts';
import { clusterMethods } from './methods/cluster.ts';
import { scanMethods } from './methods/scans.ts';
import { signatureMethods } from './methods/signatures.ts';
import { submissionMethods } from './methods/submission.ts';
import { tokenMethods } from './methods/tokens.ts';
import { voteAccountMethods } from './methods/vote-accounts.ts';

/** Every JSON-RPC method the endpoint answers, by name. Anything else is -32601. */
export const RPC_METHODS: MethodTable = {
  ...blockhashAndFeeMethods,
  ...accountMethods,
  ...tokenMethods,
  ...signatureMethods,
  ...chainMethods,
  ...blockMethods,
  ...clusterMethods,
  ...voteAccountMethods,
  ...scanMethods,
  ...submissionMethods,
};

export const RPC_METHOD_NAMES: readonly string[] = Object.keys(RPC_METHODS).sort();
