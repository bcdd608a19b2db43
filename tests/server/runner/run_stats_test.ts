import assert from "node:assert/strict";
import { formatElapsed, StatsMeter, systemProbe } from "../../../server/runner/run_stats.ts";

Deno.test("formatElapsed() writes seconds, then minutes with two-digit seconds", () => {
  assert.equal(formatElapsed(0), "0s");
  assert.equal(formatElapsed(42_900), "42s");
  assert.equal(formatElapsed(65_000), "1m 05s");
  assert.equal(formatElapsed(4_500_000), "75m 00s");
});

Deno.test("StatsMeter reports CPU share per interval and memory in MiB and GiB", () => {
  let now = 0;
  let cpu = 0;
  const meter = new StatsMeter(() => ({
    cpuMicros: cpu,
    rssBytes: 100 * 1024 * 1024,
    memTotalBytes: 8 * 1024 ** 3,
    memAvailableBytes: 6 * 1024 ** 3,
  }), () => now);
  now = 10_000;
  cpu = 5_000_000; // 5 s of CPU in 10 s
  assert.deepEqual(meter.next(), {
    type: "stats",
    elapsed: "10s",
    cpu_pct: 50,
    proc_ram_mb: 100,
    sys_ram_used_gb: 2,
    sys_ram_total_gb: 8,
    sys_ram_pct: 25,
  });
});

Deno.test("StatsMeter gives null where the platform cannot say", () => {
  const meter = new StatsMeter(() => ({
    cpuMicros: null,
    rssBytes: null,
    memTotalBytes: null,
    memAvailableBytes: null,
  }));
  const stats = meter.next();
  assert.equal(stats.cpu_pct, null);
  assert.equal(stats.proc_ram_mb, null);
  assert.equal(stats.sys_ram_pct, null);
});

Deno.test("systemProbe reads this process and machine", () => {
  const reading = systemProbe();
  assert.ok(reading.rssBytes! > 0);
  assert.ok(reading.memTotalBytes! > 0);
  assert.ok(reading.cpuMicros! >= 0);
});
