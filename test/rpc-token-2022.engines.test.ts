/**
 * jsonParsed of Token-2022 mints and accounts lists their extensions as the validator does
 * (agave account-decoder's `UiExtension`): a mint made with a metadata pointer, token metadata, a
 * transfer fee and a close authority, and an account with immutable owner, a withheld-fee amount
 * and required memos, both made by the Token-2022 program itself on the ledger.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createEnableRequiredMemoTransfersInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  createReallocateInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import { createInitializeInstruction, pack, type TokenMetadata } from '@solana/spl-token-metadata';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, sendAndConfirmTransaction, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

describe('jsonParsed Token-2022', () => {
  let emulator: RelayEmulator;
  let connection: Connection;
  const payer = Keypair.generate();
  const mint = Keypair.generate();
  const owner = Keypair.generate();
  const metadata: TokenMetadata = {
    mint: mint.publicKey,
    name: 'Emulated Gold',
    symbol: 'EGLD',
    uri: 'https://relay-emulator.invalid/egld.json',
    additionalMetadata: [['purity', '999']],
    updateAuthority: payer.publicKey,
  };

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    connection = new Connection(emulator.config.rpcUrl, 'confirmed');
    await emulator.faucet({ address: payer.publicKey.toBase58(), lamports: 10 * LAMPORTS_PER_SOL });
    await emulator.faucet({ address: owner.publicKey.toBase58(), lamports: LAMPORTS_PER_SOL });
    const space = getMintLen([ExtensionType.MetadataPointer, ExtensionType.TransferFeeConfig, ExtensionType.MintCloseAuthority]);
    // Token metadata is reallocated into the mint by its initialize instruction: pay its rent up front.
    const lamports = await connection.getMinimumBalanceForRentExemption(space + 4 + pack(metadata).length);
    const createMint = new Transaction().add(
      SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint.publicKey, space, lamports, programId: TOKEN_2022_PROGRAM_ID }),
      createInitializeMetadataPointerInstruction(mint.publicKey, payer.publicKey, mint.publicKey, TOKEN_2022_PROGRAM_ID),
      createInitializeTransferFeeConfigInstruction(mint.publicKey, payer.publicKey, null, 50, 5_000n, TOKEN_2022_PROGRAM_ID),
      createInitializeMintCloseAuthorityInstruction(mint.publicKey, payer.publicKey, TOKEN_2022_PROGRAM_ID),
      createInitializeMintInstruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      createInitializeInstruction({
        programId: TOKEN_2022_PROGRAM_ID,
        metadata: mint.publicKey,
        updateAuthority: payer.publicKey,
        mint: mint.publicKey,
        mintAuthority: payer.publicKey,
        name: metadata.name,
        symbol: metadata.symbol,
        uri: metadata.uri,
      }),
    );
    await sendAndConfirmTransaction(connection, createMint, [payer, mint]);
    const account = getAssociatedTokenAddressSync(mint.publicKey, owner.publicKey, false, TOKEN_2022_PROGRAM_ID);
    const createAccount = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, account, owner.publicKey, mint.publicKey, TOKEN_2022_PROGRAM_ID),
      // Room for the memo-transfer extension, then turn it on.
      createReallocateInstruction(account, payer.publicKey, [ExtensionType.MemoTransfer], owner.publicKey, [], TOKEN_2022_PROGRAM_ID),
      createEnableRequiredMemoTransfersInstruction(account, owner.publicKey, [], TOKEN_2022_PROGRAM_ID),
    );
    await sendAndConfirmTransaction(connection, createAccount, [payer, owner]);
  });
  afterAll(() => emulator.close());

  it('lists a mint’s extensions as agave’s UiExtension', async () => {
    const info = await connection.getParsedAccountInfo(mint.publicKey);
    const data = info.value!.data as { program: string; parsed: { type: string; info: Record<string, unknown> } };
    expect(data.program).toBe('spl-token-2022');
    expect(data.parsed.type).toBe('mint');
    expect(data.parsed.info).toMatchObject({ decimals: 6, mintAuthority: payer.publicKey.toBase58(), freezeAuthority: null, supply: '0', isInitialized: true });
    const fee = { epoch: 0, maximumFee: 5000, transferFeeBasisPoints: 50 };
    expect(data.parsed.info.extensions).toEqual([
      { extension: 'metadataPointer', state: { authority: payer.publicKey.toBase58(), metadataAddress: mint.publicKey.toBase58() } },
      {
        extension: 'transferFeeConfig',
        state: {
          transferFeeConfigAuthority: payer.publicKey.toBase58(),
          withdrawWithheldAuthority: null,
          withheldAmount: 0,
          olderTransferFee: fee,
          newerTransferFee: fee,
        },
      },
      { extension: 'mintCloseAuthority', state: { closeAuthority: payer.publicKey.toBase58() } },
      {
        extension: 'tokenMetadata',
        state: {
          updateAuthority: payer.publicKey.toBase58(),
          mint: mint.publicKey.toBase58(),
          name: 'Emulated Gold',
          symbol: 'EGLD',
          uri: 'https://relay-emulator.invalid/egld.json',
          additionalMetadata: [],
        },
      },
    ]);
  });

  it('lists an account’s extensions, and leaves them out for a plain SPL Token account', async () => {
    const account = getAssociatedTokenAddressSync(mint.publicKey, owner.publicKey, false, TOKEN_2022_PROGRAM_ID);
    const info = await connection.getParsedAccountInfo(account);
    const data = info.value!.data as { parsed: { type: string; info: Record<string, unknown> } };
    expect(data.parsed.type).toBe('account');
    expect(data.parsed.info.extensions).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'transferFeeAmount', state: { withheldAmount: 0 } },
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
    ]);
    // The same through getProgramAccounts and getTokenAccountsByOwner.
    const byOwner = await connection.getParsedTokenAccountsByOwner(owner.publicKey, { programId: TOKEN_2022_PROGRAM_ID });
    expect((byOwner.value[0]!.account.data.parsed as { info: { extensions: unknown[] } }).info.extensions).toHaveLength(3);
    const usdc = emulator.services.fixtures.mints.find((each) => each.symbol === 'USDC')!.address;
    const alice = emulator.services.fixtures.wallets.find((each) => each.name === 'alice')!.publicKey;
    const plain = await connection.getParsedAccountInfo(getAssociatedTokenAddressSync(new PublicKey(usdc), new PublicKey(alice), true));
    expect((plain.value!.data as { parsed: { info: Record<string, unknown> } }).parsed.info).not.toHaveProperty('extensions');
  });
});
