/**
 * The URL a listener is reached at from the same machine: a wildcard address (`0.0.0.0`, `::`)
 * is reached on loopback, an IPv6 address goes in brackets.
 */

/** `http://host:port` of a bound listener, e.g. `http://127.0.0.1:5123` for `0.0.0.0:5123`. */
export function localUrl(address: { hostname: string; port: number }): string {
  const { hostname, port } = address;
  const host = hostname === "0.0.0.0" || hostname === ""
    ? "127.0.0.1"
    : hostname === "::"
    ? "[::1]"
    : hostname.includes(":")
    ? `[${hostname}]`
    : hostname;
  return `http://${host}:${port}`;
}
