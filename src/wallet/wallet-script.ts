/**
 * What runs in the page: a Wallet Standard wallet (github.com/wallet-standard/wallet-standard) with
 * the features `@solana/wallet-standard-features` names, registered as `@wallet-standard/wallet`'s
 * `registerWallet` registers one (the `wallet-standard:register-wallet` event, whose detail is a
 * callback given the app's `{ register }`, and an answer to `wallet-standard:app-ready`), so that
 * wallet-adapter, kit's `@solana/react` and `@wallet-ui/react` find it as they find Phantom. It holds
 * no key: every request goes to the test's process through a binding the driver exposes
 * (Playwright's `page.exposeBinding`), where the test wallet decides, signs and records it.
 *
 * Written by hand, not bundled from those packages (x-emulator-choice): the script is a string the
 * driver injects before any of the page's scripts, so it may import nothing; the protocol is two
 * events and the features are plain objects. Opt-in `legacy` adds `window.solana` and
 * `window.phantom.solana` with Phantom's methods, for dapps older than the Wallet Standard.
 */

export interface WalletScriptOptions {
  /** The binding's name on `window`. */
  binding: string;
  name: string;
  /** A data: URL of an image, as the standard requires. */
  icon: string;
  chains: readonly string[];
  legacy: boolean;
}

/** The name of the function the test's process calls (`page.evaluate`) to tell the page the wallet's accounts changed. */
export const ACCOUNTS_CHANGED = '__relayEmulatorWalletAccountsChanged__';

/** The init script, as a string a driver injects (`page.addInitScript({ content })`). */
export function walletScript(options: WalletScriptOptions): string {
  // JSON inside a script: `</script>` and U+2028/9 cannot end or break it.
  const json = JSON.stringify({ ...options, accountsChanged: ACCOUNTS_CHANGED })
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  // A function, so that `$&` or `$`` in a name is text, not a replacement pattern.
  return PAGE_SOURCE.replace('(OPTIONS);', () => `(${json});`);
}

/**
 * The page's side, as JavaScript source (not a compiled function's text: a bundler's helpers, such as
 * esbuild's `__name`, would not exist in the page). `OPTIONS` is replaced by the options' JSON.
 */
const PAGE_SOURCE = `(function (options) {
  var send = window[options.binding];
  if (typeof send !== 'function') return;
  var FEATURES = ['solana:signTransaction', 'solana:signAndSendTransaction', 'solana:signMessage', 'solana:signIn'];
  function toBase64(bytes) {
    var text = '';
    for (var i = 0; i < bytes.length; i += 1) text += String.fromCharCode(bytes[i]);
    return btoa(text);
  }
  function fromBase64(text) {
    return Uint8Array.from(atob(text), function (char) { return char.charCodeAt(0); });
  }
  async function call(method, params) {
    var answer = JSON.parse(await send(JSON.stringify({ method: method, params: params })));
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code, name: answer.error.name });
    return answer.result;
  }
  var listeners = new Set();
  var accounts = [];
  function accountOf(json) {
    return Object.freeze({ address: json.address, publicKey: new Uint8Array(json.publicKey), chains: options.chains, features: FEATURES, label: options.name });
  }
  function accountNamed(address) {
    var account = accounts.find(function (known) { return known.address === address; });
    if (!account) throw Object.assign(new Error('The wallet has no such account connected.'), { code: 4100, name: 'WalletAccountError' });
    return account;
  }
  var legacyEvents = new Map();
  function emitLegacy(event) {
    var args = Array.prototype.slice.call(arguments, 1);
    (legacyEvents.get(event) || new Set()).forEach(function (listener) { listener.apply(null, args); });
  }
  function legacyKey(account) {
    var bytes = account.publicKey;
    return { toBase58: function () { return account.address; }, toString: function () { return account.address; },
      toBytes: function () { return bytes.slice(); }, toBuffer: function () { return bytes.slice(); } };
  }
  function setAccounts(next) {
    var before = accounts[0] && accounts[0].address;
    accounts = next.map(accountOf);
    listeners.forEach(function (listener) { listener({ accounts: accounts.slice() }); });
    if (!options.legacy) return;
    var first = accounts[0];
    if (first === undefined) emitLegacy('disconnect');
    else if (before === undefined) emitLegacy('connect', legacyKey(first));
    else if (before !== first.address) emitLegacy('accountChanged', legacyKey(first));
  }
  window[options.accountsChanged] = setAccounts;

  function each(inputs, method, build, answer) {
    return Promise.all(inputs.map(async function (input) {
      accountNamed(input.account.address);
      return answer(await call(method, build(input)), input);
    }));
  }
  var wallet = {
    version: '1.0.0',
    name: options.name,
    icon: options.icon,
    chains: options.chains,
    get accounts() { return accounts.slice(); },
    features: {
      'standard:connect': { version: '1.0.0', connect: async function (input) {
        setAccounts((await call('connect', { silent: !!(input && input.silent) })).accounts);
        return { accounts: accounts.slice() };
      } },
      'standard:disconnect': { version: '1.0.0', disconnect: async function () {
        await call('disconnect', {});
        setAccounts([]);
      } },
      'standard:events': { version: '1.0.0', on: function (event, listener) {
        if (event !== 'change') return function () {};
        listeners.add(listener);
        return function () { listeners.delete(listener); };
      } },
      'solana:signTransaction': { version: '1.0.0', supportedTransactionVersions: ['legacy', 0], signTransaction: function () {
        return each(Array.from(arguments), 'signTransaction',
          function (input) { return { account: input.account.address, transaction: toBase64(input.transaction), chain: input.chain || null }; },
          function (signed) { return { signedTransaction: fromBase64(signed.transaction) }; });
      } },
      'solana:signAndSendTransaction': { version: '1.0.0', supportedTransactionVersions: ['legacy', 0], signAndSendTransaction: function () {
        return each(Array.from(arguments), 'signAndSendTransaction',
          function (input) {
            return { account: input.account.address, transaction: toBase64(input.transaction), chain: input.chain || null, options: input.options || null };
          },
          function (sent) { return { signature: fromBase64(sent.signature) }; });
      } },
      'solana:signMessage': { version: '1.0.0', signMessage: function () {
        return each(Array.from(arguments), 'signMessage',
          function (input) { return { account: input.account.address, message: toBase64(input.message) }; },
          function (signed, input) { return { signedMessage: input.message, signature: fromBase64(signed.signature), signatureType: 'ed25519' }; });
      } },
      'solana:signIn': { version: '1.0.0', signIn: function () {
        return Promise.all(Array.from(arguments).map(async function (input) {
          var signed = await call('signIn', { input: input || {} });
          setAccounts(signed.accounts);
          return { account: accountNamed(signed.address), signedMessage: fromBase64(signed.message), signature: fromBase64(signed.signature),
            signatureType: 'ed25519' };
        }));
      } },
    },
  };

  // registerWallet, as @wallet-standard/wallet does it: an event whose detail is the callback, and an answer to the app's.
  function callback(api) { api.register(wallet); }
  try {
    window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { bubbles: false, cancelable: false, composed: false, detail: callback }));
  } catch (error) { console.error('relay-emulator wallet: wallet-standard:register-wallet could not be dispatched', error); }
  try {
    window.addEventListener('wallet-standard:app-ready', function (event) { callback(event.detail); });
  } catch (error) { console.error('relay-emulator wallet: wallet-standard:app-ready could not be listened to', error); }

  if (!options.legacy) return;
  // Phantom's provider, for dapps older than the standard: its methods and events; keys as web3.js PublicKey-likes.
  function serialize(transaction) {
    try { return transaction.serialize({ requireAllSignatures: false, verifySignatures: false }); } catch (error) { return transaction.serialize(); }
  }
  function signedInto(transaction, bytes) {
    var kind = transaction.constructor;
    return typeof kind.from === 'function' ? kind.from(bytes) : kind.deserialize(bytes);
  }
  function current() { return accountNamed(accounts[0] && accounts[0].address); }
  var provider = {
    isPhantom: true,
    get publicKey() { return accounts[0] ? legacyKey(accounts[0]) : null; },
    get isConnected() { return accounts.length > 0; },
    connect: async function (input) {
      setAccounts((await call('connect', { silent: !!(input && input.onlyIfTrusted), legacy: true })).accounts);
      return { publicKey: legacyKey(current()) };
    },
    disconnect: async function () { await call('disconnect', {}); setAccounts([]); },
    signTransaction: async function (transaction) {
      var signed = await call('signTransaction', { account: current().address, transaction: toBase64(serialize(transaction)), chain: null, legacy: true });
      return signedInto(transaction, fromBase64(signed.transaction));
    },
    signAllTransactions: async function (transactions) {
      var out = [];
      for (var i = 0; i < transactions.length; i += 1) out.push(await provider.signTransaction(transactions[i]));
      return out;
    },
    signAndSendTransaction: async function (transaction) {
      var sent = await call('signAndSendTransaction',
        { account: current().address, transaction: toBase64(serialize(transaction)), chain: null, options: null, legacy: true });
      return { signature: sent.signatureBase58, publicKey: legacyKey(current()) };
    },
    signMessage: async function (message) {
      var signed = await call('signMessage', { account: current().address, message: toBase64(message), legacy: true });
      return { signature: fromBase64(signed.signature), publicKey: legacyKey(current()) };
    },
    on: function (event, listener) {
      var set = legacyEvents.get(event) || new Set();
      set.add(listener);
      legacyEvents.set(event, set);
    },
    off: function (event, listener) { var set = legacyEvents.get(event); if (set) set.delete(listener); },
    removeListener: function (event, listener) { var set = legacyEvents.get(event); if (set) set.delete(listener); },
  };
  window.solana = provider;
  window.phantom = { solana: provider };
})(OPTIONS);`;
