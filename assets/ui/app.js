// The web UI's entry: routes (/, /tx/<id>, /address/<address> and /account/<address>), live updates, the admin token.

import { adoptTokenFromAddress, call, setToken } from './api.js';
import { fill, h, setNames } from './dom.js';
import { watch } from './live.js';
import { detailView } from './view-detail.js';
import { homeView } from './view-home.js';
import { walletView } from './view-wallet.js';

// The server set <base> to lead back to the origin's root; pin it, so that pushState cannot move it.
const ROOT = new URL(document.baseURI);
document.querySelector('base').href = ROOT.href;

const main = document.getElementById('main');
const live = document.getElementById('live');
let view = null;
let refreshing = null;
let refreshAgain = false;
let stopWatching = () => {};
let namesLoaded = null;

/** The names of programs, mints and fixture keys, read once (again after a failure, such as a missing token). */
function loadNames() {
  namesLoaded ??= call('__emulator/overview').then(
    (overview) => setNames(overview.names),
    () => {
      namesLoaded = null;
    },
  );
  return namesLoaded;
}

const app = {
  /** Goes to a path of the UI (relative to the root) without reloading the page. */
  go(path) {
    const url = new URL(path, ROOT);
    history.pushState(null, '', url);
    render();
  },
  /** Fetches what the view shows again (one fetch at a time; a change meanwhile fetches once more). */
  refresh() {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      try {
        await loadNames();
        await view?.refresh();
      } catch (error) {
        app.failed(error);
      }
    })().finally(() => {
      refreshing = null;
      if (refreshAgain) {
        refreshAgain = false;
        app.refresh();
      }
    });
    return refreshing;
  },
  /** What a view does with an error it cannot show itself: the admin token form, or a message. */
  failed(error) {
    if (error?.needsToken) {
      live.textContent = 'Admin token needed';
      fill(main, tokenForm(error));
      view = null;
      return;
    }
    view?.showError?.(error);
  },
};

function route() {
  const url = new URL(location.href);
  const path = url.pathname.startsWith(ROOT.pathname) ? url.pathname.slice(ROOT.pathname.length) : '';
  const [first, ...rest] = path.split('/');
  const argument = rest.length > 0 ? decodeURIComponent(rest.join('/')) : '';
  if (first === 'tx' && argument) return detailView(argument, app);
  // Kinetic's SDKs link a wallet as account/<address> or address/<address>.
  if ((first === 'address' || first === 'account') && argument) return walletView(argument, app);
  return homeView(url.searchParams, app);
}

function render() {
  view = route();
  fill(main, view.element);
  document.title = `${view.title} · relay-emulator`;
  app.refresh().then(() => {
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target instanceof HTMLDetailsElement) target.open = true;
    if (target) target.scrollIntoView();
  });
}

function tokenForm(error) {
  const input = h('input', { id: 'admin-token', name: 'token', type: 'password', autocomplete: 'off', required: true });
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'token-title' },
    h('h1', { id: 'token-title' }, 'Admin token needed'),
    h('p', {}, error.message),
    h(
      'p',
      {},
      'This emulator is bound to a non-loopback address, so its controls want the admin token printed in its start-up banner. The page keeps it in ' +
        'this tab only.',
    ),
    h(
      'form',
      {
        class: 'inline',
        onsubmit(event) {
          event.preventDefault();
          setToken(input.value);
          start();
        },
      },
      h('label', { for: 'admin-token' }, 'Admin token'),
      input,
      h('button', { type: 'submit' }, 'Use token'),
    ),
  );
}

function start() {
  stopWatching();
  render();
  stopWatching = watch({
    onChange: () => app.refresh(),
    onState(state) {
      live.textContent = state === 'live' ? 'Live' : state === 'locked' ? 'Admin token needed' : 'Reconnecting…';
      live.dataset.state = state;
    },
  });
}

document.addEventListener('click', (event) => {
  const anchor = event.target instanceof Element ? event.target.closest('a[data-route]') : null;
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  app.go(anchor.getAttribute('href'));
  main.focus({ preventScroll: Boolean(location.hash) });
});

document.getElementById('lookup').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const address = String(new FormData(form).get('address') ?? '').trim();
  if (address) app.go(`address/${encodeURIComponent(address)}`);
});

window.addEventListener('popstate', render);
adoptTokenFromAddress();
start();
