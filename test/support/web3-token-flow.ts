/**
 * What a web3.js 1.x app does with a plain `new Connection(RpcUrl, { httpHeaders })` and no
 * `wsEndpoint`: an airdrop confirmed over PubSub, then spl-token's createMint,
 * getOrCreateAssociatedTokenAccount, mintTo and transfer, each a sendAndConfirmTransaction (web3.js
 * looks for PubSub on the RPC's port + 1 by itself). Returns the balances it ends with.
 */
import { createMint, getOrCreateAssociatedTokenAccount, mintTo, transfer } from '@solana/spl-token';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';

export async function web3TokenFlow(
  baseUrl: string,
  apiKey: string,
  fetcher: typeof fetch = fetch,
): Promise<{ sender: bigint; recipient: bigint; rpcUrl: string }> {
  const config = (await (await fetcher(`${baseUrl}/Transaction/config`, { headers: { 'X-API-Key': apiKey } })).json()) as { RpcUrl: string; Token: string };
  const connection = new Connection(config.RpcUrl, { commitment: 'confirmed', httpHeaders: { Authorization: `Bearer ${config.Token}` } });
  const payer = Keypair.generate();
  const recipient = Keypair.generate();
  const airdrop = await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature: airdrop, blockhash, lastValidBlockHeight }, 'confirmed');
  const mint = await createMint(connection, payer, payer.publicKey, null, 6);
  const from = await getOrCreateAssociatedTokenAccount(connection, payer, mint, payer.publicKey);
  const to = await getOrCreateAssociatedTokenAccount(connection, payer, mint, recipient.publicKey);
  await mintTo(connection, payer, mint, from.address, payer, 5_000_000n);
  await transfer(connection, payer, from.address, to.address, payer, 1_250_000n);
  const [sender, received] = await Promise.all([connection.getTokenAccountBalance(from.address), connection.getTokenAccountBalance(to.address)]);
  return { sender: BigInt(sender.value.amount), recipient: BigInt(received.value.amount), rpcUrl: config.RpcUrl };
}
