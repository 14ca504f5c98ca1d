/**
 * Where `relay-emulator start` and startServer listen unless told otherwise. A module of its own so
 * that the command line's option parsing (and `start --help`) loads no emulator.
 */
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
