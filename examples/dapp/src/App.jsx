import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { ConnectionProvider, useWallet, WalletProvider } from '@solana/wallet-adapter-react';
import { WalletModalProvider, WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { useState } from 'react';
import '@solana/wallet-adapter-react-ui/styles.css';
import { landed, RELAY, relayConfig, relaySend } from './relay.js';

const USDC = new PublicKey('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU');
const USDC_DECIMALS = 6;

/** Send: a USDC transfer the relay pays for. The wallet signs the user's slot, the relay the fee payer's. */
function Send() {
  const { publicKey, signTransaction } = useWallet();
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('1');
  const [status, setStatus] = useState('');
  const [receipt, setReceipt] = useState('');

  async function send() {
    try {
      setStatus('signing');
      const config = await relayConfig();
      const recipient = new PublicKey(to);
      const units = BigInt(Math.round(Number(amount) * 10 ** USDC_DECIMALS));
      const transfer = createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(USDC, publicKey),
        USDC,
        getAssociatedTokenAddressSync(USDC, recipient),
        publicKey,
        units,
        USDC_DECIMALS,
      );
      const message = new TransactionMessage({ payerKey: new PublicKey(config.feePayer), recentBlockhash: config.blockhash, instructions: [transfer] });
      const signed = await signTransaction(new VersionedTransaction(message.compileToV0Message()));
      const { ok, status: code, receipt: answer } = await relaySend(signed.serialize());
      setReceipt(JSON.stringify(answer));
      if (!ok) return setStatus(`relay refused: ${answer.code ?? code}`);
      setStatus('sent');
      const { err } = await landed(answer.Signature, config);
      setStatus(err === null ? 'landed' : `failed: ${JSON.stringify(err)}`);
    } catch (error) {
      // wallet-adapter wraps the wallet's error; its cause carries the wallet's code (4001: the user rejected).
      const cause = error.error ?? error;
      setStatus(`send failed: ${cause.code ?? ''} ${cause.message ?? error.message}`.trim());
    }
  }

  if (!publicKey) return <p id="status">Connect a wallet to send USDC.</p>;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <p id="account">{publicKey.toBase58()}</p>
      <label>
        To <input id="to" value={to} onChange={(event) => setTo(event.target.value)} />
      </label>
      <label>
        USDC <input id="amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <button type="submit" id="send">
        Send
      </button>
      <p id="status">{status}</p>
      <pre id="receipt">{receipt}</pre>
    </form>
  );
}

/**
 * As wallet-adapter's docs set it up: wallets are found by the Wallet Standard (`wallets` lists only
 * the legacy adapters a dapp adds by hand), and the one picked in WalletMultiButton's list connects
 * (`autoConnect`).
 */
export function App() {
  return (
    <ConnectionProvider endpoint={RELAY.rpcUrl}>
      <WalletProvider wallets={[]} autoConnect>
        <WalletModalProvider>
          <WalletMultiButton />
          <Send />
        </WalletModalProvider>
      </WalletProvider>
    </ConnectionProvider>
  );
}
