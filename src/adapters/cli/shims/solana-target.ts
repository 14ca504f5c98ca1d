export interface SolanaIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** Where a served subcommand talks to, and as whom, resolved as the Solana CLI resolves its global options. */
export interface SolanaTarget {
  rpcUrl: string;
  wsUrl: string;
  keypairPath: string;
  commitment: string;
  output: 'display' | 'json' | 'json-compact';
}
