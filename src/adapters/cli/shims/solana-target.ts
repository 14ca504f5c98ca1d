export interface SolanaIo {
  /** Writes `text`; false when the stream's buffer is full (then {@link whenDrained} says when it has room). */
  stdout: (text: string) => boolean | void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves once stdout can take more (process.stdout's 'drain'). Absent: writes never wait. */
  whenDrained?: () => Promise<void>;
}

/** Where a served subcommand talks to, and as whom, resolved as the Solana CLI resolves its global options. */
export interface SolanaTarget {
  rpcUrl: string;
  wsUrl: string;
  keypairPath: string;
  commitment: string;
  output: 'display' | 'json' | 'json-compact';
}
