/**
 * `RUNNER_QUEUE_URL`, `redis://[:password@]HOST:PORT[/DB]`, read into the parts an ioredis client
 * is built from. Checked at start, so that a typo stops the service with one line instead of
 * a client retrying an unreachable address for ever.
 */

/** Where the queue's Redis is. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly password?: string;
}

/** The URL's parts; throws a TypeError naming `name` for anything else. */
export function parseRedisUrl(name: string, value: string): RedisAddress {
  const refuse = (why: string): never => {
    throw new TypeError(
      `${name}: "${redact(value)}" is not a Redis URL like redis://[:password@]host:6379[/0] ` +
        `(${why})`,
    );
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse("not a URL");
  }
  if (url.protocol !== "redis:") refuse("the scheme must be redis:");
  if (url.hostname === "") refuse("no host");
  if (url.port === "") refuse("no port");
  const port = Number(url.port);
  if (!(port >= 1 && port <= 65535)) refuse("port out of range");
  const path = url.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path)) refuse("the path must be a database number");
  if (url.search !== "" || url.hash !== "") refuse("no query or fragment");
  const password = url.password === "" ? undefined : decodeURIComponent(url.password);
  // An IPv6 host comes bracketed; the client wants it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    host,
    port,
    db: path === "" ? 0 : Number(path),
    ...(password === undefined ? {} : { password }),
  };
}

/** The URL without its password, for messages and logs. */
export function redact(value: string): string {
  return value.replace(/^(redis:\/\/[^:@/]*:)[^@]*@/i, "$1***@");
}

/** `redis://host:port/db`, no password: how a log line names the queue. */
export function describeRedis(address: RedisAddress): string {
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return `redis://${host}:${address.port}/${address.db}`;
}
