import { VALIDATOR_FLAGS } from './test-validator-flags.ts';
import { optionLines } from '../start/start-options.ts';

/** `relay-emulator test-validator --help`: the validator's flags, each with what it does here, then relay-emulator's own. */
export function testValidatorUsage(): string {
  const flags = VALIDATOR_FLAGS.map((flag) => {
    const names = [...(flag.aliases ?? []).filter((alias) => alias.length === 1).map((alias) => `-${alias}`), `--${flag.name}`].join(', ');
    const values = flag.values.map((value, index) => (flag.optional && index === flag.values.length - 1 ? `[${value}]` : value)).join(' ');
    const tag = flag.kind === 'honoured' ? '' : flag.kind === 'noted' ? '(accepted, means nothing here) ' : '(refused) ';
    return `  ${`${names} ${values}`.trimEnd()}\n      ${tag}${flag.does}`;
  });
  return (
    'Usage: relay-emulator test-validator [solana-test-validator flags] [relay-emulator start flags]\n\n' +
    'Runs the emulator as solana-test-validator: the RPC on 8899 (PubSub on 8900), the state in test-ledger/, the RPC open to\n' +
    'its callers, and the relay, Kora and the web UI on the same port. `relay-emulator shims DIR` writes the name for tools that spawn it.\n\n' +
    `solana-test-validator's flags:\n${flags.join('\n')}\n  -V, --version\n  -h, --help\n\n` +
    `relay-emulator start's flags it takes too (but --port, --host, --state-file and --import, which the validator's flags say):\n${optionLines()}\n`
  );
}
