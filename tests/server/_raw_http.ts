/**
 * HTTP/1.1 over a raw TCP connection, for tests that must send what `fetch` would not (a path
 * with `..`, an empty Origin, a Host of their own, a header block that never ends) and read the
 * answer as the server wrote it.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A new connection to `port` on 127.0.0.1, with `send` written on it first when given. */
export async function connect(port: number, send = ""): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  if (send) await conn.write(encoder.encode(send));
  return conn;
}

/** Everything a connection receives until the server closes it, and when that happened (ms). */
export async function readUntilClosed(conn: Deno.Conn): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  let text = "";
  const buffer = new Uint8Array(16 * 1024);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += decoder.decode(buffer.subarray(0, n));
  }
  return { text, ms: Date.now() - started };
}

/**
 * Sends `head` as is (the request line and header lines, each ending in CRLF) then
 * `Connection: close` and a blank line over a new connection; the answer's status, its head,
 * and its body up to the next blank line.
 */
export async function rawRequest(
  port: number,
  head: string,
): Promise<{ status: number; head: string; body: string }> {
  const conn = await connect(port, `${head}Connection: close\r\n\r\n`);
  const { text } = await readUntilClosed(conn);
  conn.close();
  const [answer = "", body = ""] = text.split("\r\n\r\n", 2);
  return { status: Number(answer.split(" ")[1]), head: answer, body };
}
