/**
 * A dapp's wallet code on kit's React hooks, as @solana/react's docs show it: wallets listed by
 * @wallet-standard/react-core's useWallets, one connected with useConnect, and a transaction signed
 * through useWalletAccountTransactionSigner, with the relay as fee payer (its signature slot left for
 * it). No JSX: createElement, so that esbuild bundles it without a JSX setting. The result is left on
 * `window.kitResult` for the test.
 */
import { useWalletAccountTransactionSigner } from '@solana/react';
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
} from '@solana/kit';
import { type UiWallet, type UiWalletAccount, useConnect, useWallets } from '@wallet-standard/react-core';
import { createElement, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Lifetime {
  relay: string;
  blockhash: string;
  lastValidBlockHeight: number;
}

const result = (value: unknown) => {
  (window as unknown as { kitResult: unknown }).kitResult = value;
};

function App(props: Lifetime) {
  const wallet = useWallets().find((candidate) => candidate.name === 'Relay Emulator');
  return wallet ? createElement(Connect, { wallet, ...props }) : null;
}

function Connect({ wallet, ...props }: Lifetime & { wallet: UiWallet }) {
  const [, connect] = useConnect(wallet);
  const [account, setAccount] = useState<UiWalletAccount | null>(null);
  // Once, as a dapp's "Connect" click does (the hook's function is new on each render).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    connect().then(
      (accounts) => setAccount(accounts[0] ?? null),
      (error: unknown) => result({ error: String(error) }),
    );
  }, [connect]);
  return account ? createElement(Sign, { account, ...props }) : null;
}

function Sign({ account, relay, blockhash, lastValidBlockHeight }: Lifetime & { account: UiWalletAccount }) {
  const signer = useWalletAccountTransactionSigner(account, 'solana:localnet');
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    // A SOL transfer of 1 lamport from the user to the relay's fee payer, paid for by the relay.
    const data = new Uint8Array(12);
    new DataView(data.buffer).setUint32(0, 2, true);
    new DataView(data.buffer).setBigUint64(4, 1n, true);
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayer(address(relay), draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) }, draft),
      (draft) =>
        appendTransactionMessageInstruction(
          {
            programAddress: address('11111111111111111111111111111111'),
            accounts: [
              { address: address(account.address), role: AccountRole.WRITABLE_SIGNER },
              { address: address(relay), role: AccountRole.WRITABLE },
            ],
            data,
          },
          draft,
        ),
    );
    signer.modifyAndSignTransactions([compileTransaction(message)]).then(
      ([signed]) =>
        result({
          account: account.address,
          signatures: Object.entries(signed!.signatures).map(([signer, signature]) => [signer, signature ? 'signed' : 'empty']),
        }),
      (error: unknown) => result({ error: String(error) }),
    );
  }, [signer, account.address, relay, blockhash, lastValidBlockHeight]);
  return null;
}

(window as unknown as { runKitDapp(lifetime: Lifetime): void }).runKitDapp = (lifetime) => {
  createRoot(document.body.appendChild(document.createElement('div'))).render(createElement(App, lifetime));
};
