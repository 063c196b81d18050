// What a server of this app listening on 127.0.0.1 (the inspector's receiver, the browser harness) accepts as its
// own address. A web page whose DNS name was rebound to 127.0.0.1 still sends its own name as Host, and a page on
// another loopback port sends its own port: both are refused by these checks.

/** The names this computer's loopback server is addressed by, with its port. */
const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

/** Whether a request's Host header names the loopback server on `port` (case does not matter; absent is not). */
export function isOwnLoopbackHost(host: string | undefined, port: number): boolean {
  return host !== undefined && ownHosts(port).includes(host.toLowerCase());
}

/** Whether an Origin (or a Referer's origin) is the loopback server on `port`, over http. */
export function isOwnLoopbackOrigin(origin: string, port: number): boolean {
  return ownHosts(port).some((host) => `http://${host}` === origin.toLowerCase());
}
