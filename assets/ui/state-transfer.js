// The whole state to a file and back: the Export and Import buttons' calls (GET and PUT /__emulator/state).

import { ApiError, headers } from './api.js';
import { h } from './dom.js';

/** GET /__emulator/state, saved by the browser as the file the server names. */
export async function exportState() {
  const response = await fetch('__emulator/state', { headers: headers(), cache: 'no-store' });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'relay-emulator-state.json';
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const anchor = h('a', { href: url, download: name, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name, bytes: blob.size };
}

/** PUT /__emulator/state with the chosen file, as it is (the server checks its checksum). */
export async function importState(input) {
  const file = input.files?.[0];
  if (!file) throw new Error('choose a state file first (one that Export or `relay-emulator export` wrote)');
  const response = await fetch('__emulator/state', {
    method: 'PUT',
    headers: headers({ 'Content-Type': 'application/json' }),
    body: await file.text(),
    cache: 'no-store',
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return { ...body, name: file.name };
}
