/**
 * Runs one extraction run in a process of its own and measures how long it holds the event
 * loop, for extraction_runs_test.ts: a test process carries hundreds of MB of garbage from the
 * imports of its other tests, whose collection would be measured instead.
 *
 * Usage: deno run -A _event_loop_probe.ts OSM_STORE DATA_STORE XMIN,YMIN,XMAX,YMAX
 * Prints one JSON line: the run's status and buildings, the ticks of a 10 ms timer, the longest
 * delay of a tick (ms), and the most CPU time this thread used between two ticks (ms; null
 * where /proc/thread-self/stat cannot be read). The CPU time is what the run itself costs this
 * thread; the delay also counts the waits for a CPU that other processes cause.
 */
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import { ExtractionRuns } from "../../lib/extraction/extraction_runs.ts";
import { RunStore } from "../../lib/extraction/run_store.ts";
import { openStore } from "../../lib/store/store.ts";

/** CPU time of the calling thread, ms (Linux); undefined elsewhere. */
function threadCpuMs(): number | undefined {
  try {
    const fields = Deno.readTextFileSync("/proc/thread-self/stat").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 ticks a second
  } catch {
    return undefined;
  }
}

const [osmPath, dataPath, box] = Deno.args;
const bbox = box!.split(",").map(Number) as [number, number, number, number];
const osm = await openStore(osmPath!, { readOnly: true });
const data = await openStore(dataPath!, { readOnly: true });
const state = await openStore(":memory:");
const runs = new RunStore(state);
await runs.init();
const manager = new ExtractionRuns({ runs, osmStore: osm, dataStore: data });

let worstLate = 0, worstCpu = 0, ticks = 0;
let last = performance.now(), lastCpu = threadCpuMs();
const timer = setInterval(() => {
  const now = performance.now(), cpu = threadCpuMs();
  worstLate = Math.max(worstLate, now - last - 10);
  if (cpu !== undefined && lastCpu !== undefined) worstCpu = Math.max(worstCpu, cpu - lastCpu);
  last = now;
  lastCpu = cpu;
  ticks++;
}, 10);
const id = await manager.submit({
  country: "LI",
  heat_country: "AT",
  bbox,
  options: DEFAULT_EXTRACTION_OPTIONS,
});
await manager.idle();
clearInterval(timer);
const run = await runs.getRun(id);
console.log(JSON.stringify({
  status: run?.status,
  error: run?.error,
  buildings: run?.counts.buildings,
  ticks,
  worstLateMs: Math.round(worstLate),
  worstCpuMs: lastCpu === undefined ? null : worstCpu,
}));
await manager.close();
await state.close();
await osm.close();
await data.close();
