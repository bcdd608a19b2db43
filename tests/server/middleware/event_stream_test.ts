import assert from "node:assert/strict";
import {
  eventStreamResponse,
  formatEvent,
  SHUTDOWN_EVENT,
} from "../../../server/middleware/event_stream.ts";

Deno.test("formatEvent() writes id, event and one JSON data line, without stray newlines", () => {
  assert.equal(formatEvent({ data: { a: "x\ny" } }), 'data: {"a":"x\\ny"}\n\n');
  assert.equal(
    formatEvent({ id: 7, event: "log\nevent: forged", data: "line" }),
    'id: 7\nevent: logevent: forged\ndata: "line"\n\n',
  );
  assert.equal(formatEvent({ data: undefined }), "data: null\n\n");
});

Deno.test("eventStreamResponse() streams what the producer sends until it closes", async () => {
  const shutdown = new AbortController();
  let cleaned = 0;
  const res = eventStreamResponse({ shutdown: shutdown.signal }, (sink) => {
    sink.send({ event: "log", data: 1 });
    sink.send({ event: "done", data: 2 });
    sink.close();
    sink.send({ event: "late", data: 3 });
    return () => cleaned++;
  });
  assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assert.equal(await res.text(), "event: log\ndata: 1\n\nevent: done\ndata: 2\n\n");
  assert.equal(cleaned, 1);
});

Deno.test("eventStreamResponse() ends with a shutdown event when the service stops", async () => {
  const shutdown = new AbortController();
  let cleaned = 0;
  const res = eventStreamResponse({ shutdown: shutdown.signal }, (sink) => {
    sink.send({ event: "log", data: "started" });
    return () => cleaned++;
  });
  shutdown.abort();
  const text = await res.text();
  assert.match(text, /^event: log\n/);
  assert.match(text, new RegExp(`event: ${SHUTDOWN_EVENT}\\ndata: \\{"reason":.*\\n\\n$`));
  assert.equal(cleaned, 1);
});

Deno.test("eventStreamResponse() cleans up when the client goes away", async () => {
  const shutdown = new AbortController();
  let cleaned = 0;
  let sinkSignal: AbortSignal | undefined;
  const res = eventStreamResponse({ shutdown: shutdown.signal }, (sink) => {
    sinkSignal = sink.signal;
    sink.send({ data: 1 });
    return () => cleaned++;
  });
  const reader = res.body!.getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(cleaned, 1);
  assert.equal(sinkSignal?.aborted, true);
  shutdown.abort();
  assert.equal(cleaned, 1, "a stop after the client left cleans up nothing twice");
});

Deno.test("eventStreamResponse() after the stop began is empty and starts no producer", async () => {
  const shutdown = new AbortController();
  shutdown.abort();
  let started = false;
  const res = eventStreamResponse({ shutdown: shutdown.signal }, () => {
    started = true;
  });
  assert.equal(await res.text(), "");
  assert.equal(started, false);
});

Deno.test("eventStreamResponse() sends keep-alive comments while idle", async () => {
  const shutdown = new AbortController();
  const res = eventStreamResponse({ shutdown: shutdown.signal, heartbeatMs: 10 }, () => {});
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await reader.read();
  assert.equal(value, ": keep-alive\n\n");
  shutdown.abort();
  await reader.cancel();
});
