/**
 * A WebSocket client on a raw TCP connection, for tests of clients that misbehave (send and
 * never read): the handshake, masked text frames out, and the server's frames parsed back.
 */

/** A server frame: its opcode and payload (text frames and close frames are what we read). */
export interface RawFrame {
  opcode: number;
  payload: Uint8Array;
}

const encoder = new TextEncoder();

/** Opens `path` on `port` with the WebSocket handshake; resolves once the 101 has been read. */
export async function rawSocket(port: number, path: string): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
      "Sec-WebSocket-Version: 13\r\n\r\n",
  ));
  // Read the answer's head byte by byte, so no frame after it is consumed.
  const head: number[] = [];
  const one = new Uint8Array(1);
  while (!(head.length >= 4 && head.slice(-4).join() === "13,10,13,10")) {
    if (await conn.read(one) === null) throw new Error("closed during the handshake");
    head.push(one[0]!);
  }
  const status = new TextDecoder().decode(new Uint8Array(head)).split("\r\n")[0];
  if (!status?.includes(" 101 ")) throw new Error(`handshake answered ${status}`);
  return conn;
}

/** A masked text frame of `text` (under 126 bytes), as a client must send it. */
export function textFrame(text: string): Uint8Array {
  const payload = encoder.encode(text);
  if (payload.length >= 126) throw new RangeError("short frames only");
  const mask = [0x12, 0x34, 0x56, 0x78];
  const frame = new Uint8Array(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  frame.set(mask, 2);
  payload.forEach((byte, i) => frame[6 + i] = byte ^ mask[i % 4]!);
  return frame;
}

/**
 * Reads the server's frames until a close frame, the end of the stream, or `idleMs` without a
 * byte; answers the frames read.
 */
export async function readFrames(conn: Deno.TcpConn, idleMs = 2000): Promise<RawFrame[]> {
  const frames: RawFrame[] = [];
  let buffer = new Uint8Array(0);
  const chunk = new Uint8Array(1 << 16);
  for (;;) {
    // Parse every whole frame in the buffer.
    for (;;) {
      if (buffer.length < 2) break;
      let length = buffer[1]! & 0x7f;
      let at = 2;
      if (length === 126) {
        if (buffer.length < 4) break;
        length = (buffer[2]! << 8) | buffer[3]!;
        at = 4;
      } else if (length === 127) {
        if (buffer.length < 10) break;
        length = Number(new DataView(buffer.buffer, buffer.byteOffset + 2, 8).getBigUint64(0));
        at = 10;
      }
      if (buffer.length < at + length) break;
      const frame = { opcode: buffer[0]! & 0x0f, payload: buffer.slice(at, at + length) };
      frames.push(frame);
      buffer = buffer.slice(at + length);
      if (frame.opcode === 0x8) return frames;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pending = conn.read(chunk);
    pending.catch(() => {}); // left pending when idle; the caller closes the connection
    const read = await Promise.race([
      pending,
      new Promise<"idle">((resolve) => timer = setTimeout(() => resolve("idle"), idleMs)),
    ]);
    clearTimeout(timer);
    if (read === "idle" || read === null) return frames;
    const next = new Uint8Array(buffer.length + read);
    next.set(buffer);
    next.set(chunk.subarray(0, read), buffer.length);
    buffer = next;
  }
}

/** The code and reason of a close frame. */
export function closeOf(frame: RawFrame): { code: number; reason: string } {
  const code = (frame.payload[0]! << 8) | frame.payload[1]!;
  return { code, reason: new TextDecoder().decode(frame.payload.subarray(2)) };
}
