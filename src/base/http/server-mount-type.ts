/**
 * What a server listener tells the core about itself, so that the control routes can judge a
 * request that came in over a socket (src/interfaces/controls/browser-guard.ts). A request made in process
 * (MSW) has no mount: no browser page can send it.
 */
export interface ServerMount {
  /** Host names (lower-case, without port) this listener answers to besides the loopback names. */
  readonly hostNames: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) besides the server's own whose pages may drive the controls. */
  readonly controlOrigins: ReadonlySet<string>;
  /** True when the listener is bound to a loopback address and no public URL puts a proxy in front of it: only this machine reaches it. */
  readonly loopbackBind: boolean;
  /**
   * The interface whose listener this is, when it is one interface's own port (`--kora-port`: its
   * root is Kora's, whatever the Host). Absent: the main port, whose root is the RPC's.
   */
  readonly ownedBy?: 'kora';
}
