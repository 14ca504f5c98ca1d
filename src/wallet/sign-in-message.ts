import { WalletError } from './wallet-requests.ts';

/**
 * What a wallet refuses to sign in to, as Phantom and the SIWS spec say: a `domain` other than the
 * page's host (a phishing page naming another site), an `address` other than the wallet's, and a
 * field that holds a line break (it would forge the lines after it).
 */
export function checkSignIn(input: Record<string, unknown>, origin: string, address: string): void {
  for (const [key, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'string' && /[\r\n]/.test(item))) {
      throw new WalletError(-32602, `signIn's ${key} holds a line break.`, 'WalletSignInError');
    }
  }
  const host = URL.canParse(origin) ? new URL(origin).host : null;
  if (typeof input.domain === 'string' && input.domain !== host) {
    throw new WalletError(4100, `signIn's domain ${input.domain.slice(0, 80)} is not this page's (${host ?? origin}).`, 'WalletSignInError');
  }
  if (typeof input.address === 'string' && input.address !== address) {
    throw new WalletError(4100, `signIn's address ${input.address.slice(0, 60)} is not this wallet's account.`, 'WalletSignInError');
  }
}

/**
 * Sign In With Solana's message (the Wallet Standard `solana:signIn` feature; the text format of
 * `@solana/wallet-standard-util`'s `createSignInMessageText`, after EIP-4361): the domain asks the
 * account to sign in, then the statement and the fields the dapp gave, each on its line. The domain
 * defaults to the page's host and the address to the wallet's, as a wallet fills them in.
 */
export function signInMessage(input: Record<string, unknown>, address: string, origin: string): string {
  const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
  const domain = text('domain') ?? (URL.canParse(origin) ? new URL(origin).host : origin);
  let message = `${domain} wants you to sign in with your Solana account:\n${text('address') ?? address}`;
  const statement = text('statement');
  if (statement !== undefined) message += `\n\n${statement}`;
  const fields: string[] = [];
  const field = (label: string, key: string) => {
    const value = text(key);
    if (value !== undefined) fields.push(`${label}: ${value}`);
  };
  field('URI', 'uri');
  field('Version', 'version');
  field('Chain ID', 'chainId');
  field('Nonce', 'nonce');
  field('Issued At', 'issuedAt');
  field('Expiration Time', 'expirationTime');
  field('Not Before', 'notBefore');
  field('Request ID', 'requestId');
  const resources = Array.isArray(input.resources) ? input.resources.filter((item): item is string => typeof item === 'string') : [];
  if (resources.length > 0) fields.push(`Resources:${resources.map((resource) => `\n- ${resource}`).join('')}`);
  if (fields.length > 0) message += `\n\n${fields.join('\n')}`;
  return message;
}
