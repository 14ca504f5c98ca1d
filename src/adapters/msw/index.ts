/**
 * `relay-emulator/msw`: the MSW mount on its own, for a fetch function of your own (an emulator's
 * `fetch` wrapped in a recorder, say). `emulator.handlers` are these, made for you.
 */
export { createHandlers, type HandlerUrls } from './create-handlers.ts';
