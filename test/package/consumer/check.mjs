// What `relay-emulator exec -- node check.mjs` runs: a program that finds the emulator through the
// environment exec gives it, and exits 0 only when everything there answers as it should.
const { RELAY_BASE_URL, RELAY_RPC_URL, RELAY_API_KEY, RELAY_FEE_PAYER, RELAY_KORA_URL } = process.env;
const fail = (why) => {
  console.error(`check.mjs: ${why}`);
  process.exit(1);
};
for (const [name, value] of Object.entries({ RELAY_BASE_URL, RELAY_RPC_URL, RELAY_API_KEY, RELAY_FEE_PAYER, RELAY_KORA_URL }))
  if (!value) fail(`${name} is not set`);

const config = await (await fetch(`${RELAY_BASE_URL}/Transaction/config`, { headers: { 'X-API-Key': RELAY_API_KEY } })).json();
if (config.FeePayer !== RELAY_FEE_PAYER) fail(`FeePayer ${config.FeePayer}, RELAY_FEE_PAYER ${RELAY_FEE_PAYER}`);
if (config.RpcUrl !== RELAY_RPC_URL) fail(`RpcUrl ${config.RpcUrl}, RELAY_RPC_URL ${RELAY_RPC_URL}`);
const rpc = await fetch(RELAY_RPC_URL, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.Token}` },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [RELAY_FEE_PAYER] }),
});
const { result } = await rpc.json();
if (!(result?.value > 0)) fail(`the fee payer has no lamports: ${JSON.stringify(result)}`);
// Kora's getConfig, as the @solana/kora SDK sends it.
const kora = await fetch(RELAY_KORA_URL, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getConfig', params: undefined }),
});
const koraConfig = (await kora.json()).result;
if (koraConfig?.fee_payers?.[0] !== RELAY_FEE_PAYER) fail(`Kora at ${RELAY_KORA_URL} answered ${JSON.stringify(koraConfig)}`);
console.log(`check.mjs: ${RELAY_BASE_URL}, ${RELAY_RPC_URL} and Kora at ${RELAY_KORA_URL} answer; fee payer ${RELAY_FEE_PAYER} holds ${result.value} lamports`);
// What the emulator loaded of the app's own (--bpf-program, --upgradeable-program, --account, --account-dir).
const loaded = await (await fetch(`${new URL(RELAY_BASE_URL).origin}/__emulator/programs`)).json();
if (loaded.programs.length > 0 || loaded.accounts.length > 0)
  console.log(
    `check.mjs: the app's programs ${loaded.programs.map((p) => `${p.programId} (${p.loader})`).join(', ')}; ${loaded.accounts.length} account dump(s)`,
  );
