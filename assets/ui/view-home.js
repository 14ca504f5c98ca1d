// The home view: the live relay list first; below it the controls, folded away, and the overview.

import { h } from './dom.js';
import { controlsPanel } from './panel-controls.js';
import { overviewPanel } from './panel-overview.js';
import { relaysPanel } from './panel-relays.js';

export function homeView(searchParams, app) {
  const overview = overviewPanel();
  const controls = controlsPanel(app);
  const relays = relaysPanel(searchParams, app);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  return {
    title: 'Relays',
    element: h(
      'div',
      { class: 'home' },
      h('h1', { class: 'visually-hidden' }, 'relay-emulator'),
      error,
      relays.element,
      h('div', { class: 'columns' }, controls.element, overview.element),
    ),
    async refresh() {
      await Promise.all([overview.refresh(), relays.refresh()]);
      error.hidden = true;
    },
    showError(failure) {
      error.textContent = failure.message;
      error.hidden = false;
    },
  };
}
