/**
 * `relay-emulator/node`: the emulator on a port (what `relay-emulator start` runs), the node adapter
 * for mounting its core on an http server of your own, PubSub upgrades, and the state file.
 */
export { startServer, DEFAULT_HOST, DEFAULT_PORT, type ServerOptions, type RunningServer } from './start-server.ts';
export { createNodeListener, type NodeListener } from '../listen/node-listener.ts';
export { upgradeToPubSub } from '../../interfaces/rpc/pubsub/pubsub-server.ts';
export { StateFile, DEFAULT_STATE_INTERVAL_MS, type StateFileOptions } from './state-file.ts';
