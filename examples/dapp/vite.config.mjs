import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // web3.js and spl-token read `global` and `process.env` in places; a browser has neither.
  define: { global: 'globalThis', 'process.env': {} },
  // One bundle of ~660 kB (web3.js, spl-token, wallet-adapter): a small dapp, not worth splitting.
  build: { chunkSizeWarningLimit: 1024 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
