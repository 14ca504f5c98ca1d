// web3.js and spl-token use Node's Buffer: the `buffer` package, set where they look for it. Imported
// first by main.jsx, so it runs before them.
import { Buffer } from 'buffer';

globalThis.Buffer ??= Buffer;
