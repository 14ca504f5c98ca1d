// The web UI from the installed package: the page, one of its scripts and its data, over the
// in-process loopback listener (where the legacy explorer links lead). Copied into a scratch
// project by test/package/package.test.ts.
import { createRelayEmulator } from 'relay-emulator';

const emulator = await createRelayEmulator();
try {
  const get = async (path) => {
    const response = await fetch(new URL(path, emulator.config.uiUrl));
    return `${response.status} ${response.headers.get('content-type')?.split(';')[0]} ${(await response.text()).length > 0 ? 'body' : 'empty'}`;
  };
  console.log(`page: ${await get('./')}`);
  console.log(`script: ${await get('ui/app.js')}`);
  console.log(`style: ${await get('ui/style.css')}`);
  console.log(`overview: ${await get('__emulator/overview')}`);
} finally {
  await emulator.close();
}
