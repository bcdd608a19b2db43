/**
 * `model-run` with RUNNER_QUEUE_URL: a real redis-server on a free port and two worker processes
 * (`server/runner/worker_main.ts`); the sweep's scenarios are jobs they share, and the files
 * written equal those of a run on this thread.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../pipelines/model_run.ts";
import { startRedis, startWorker } from "../server/runner/_redis.ts";
import { nationalFile } from "./_national_file.ts";

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

/** Runs `main(args)` with RUNNER_QUEUE_URL `url` (handed in: tests run in parallel in one process). */
function withQueue(url: string, args: string[]): Promise<number> {
  return main(args, { env: { ...Deno.env.toObject(), RUNNER_QUEUE_URL: url } });
}

Deno.test("model-run on the queue: a sweep's scenarios solved by two workers", async (t) => {
  const dir = await Deno.makeTempDir();
  const redis = await startRedis();
  const workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
  try {
    const file = await nationalFile(dir);

    await t.step("each scenario a job; the same files as a run here; workers named", async () => {
      const sweepInto = (out: string) => [
        ...[file, "--out", out, "--format", "csv", "--solver", "highs"],
        ...["--scenario", "cheap_gas,dear_gas,cheap_gas+dear_gas"],
      ];
      const out = join(dir, "queued");
      assert.equal(await withQueue(redis.url, sweepInto(out)), 0);
      const sweep = await readJson(join(out, "sweep.json"));
      assert.deepEqual(
        sweep.scenarios.map((s: { scenario: string; termination: string }) => [
          s.scenario,
          s.termination,
        ]),
        [["cheap_gas", "optimal"], ["dear_gas", "optimal"], ["cheap_gas+dear_gas", "optimal"]],
      );
      const names = new Set(workers.map((w) => w.name));
      for (const s of sweep.scenarios) assert.ok(names.has(s.worker), `${s.worker} is a worker`);

      // The same sweep on this thread gives the same objectives and tables.
      const here = join(dir, "here");
      assert.equal(await main(sweepInto(here)), 0);
      const local = await readJson(join(here, "sweep.json"));
      for (const [i, s] of sweep.scenarios.entries()) {
        const objective = local.scenarios[i].objective;
        assert.ok(Math.abs(s.objective - objective) <= 1e-6 * Math.abs(objective));
        const summary = await readJson(join(out, s.directory, "summary.json"));
        assert.equal(summary.termination, "optimal");
        const tables = [...Deno.readDirSync(join(out, s.directory))].map((e) => e.name).sort();
        const localTables = [...Deno.readDirSync(join(here, s.directory))].map((e) => e.name)
          .sort();
        assert.deepEqual(tables, localTables);
      }
    });

    await t.step("one model without --scenario: one job, files in --out itself", async () => {
      const out = join(dir, "single");
      assert.equal(await withQueue(redis.url, [file, "--out", out, "--solver", "highs"]), 0);
      const summary = await readJson(join(out, "summary.json"));
      assert.equal(summary.termination, "optimal");
      await assert.rejects(Deno.stat(join(out, "sweep.json")), Deno.errors.NotFound);
    });

    await t.step("a scenario not optimal: exit 2, the others written", async () => {
      const out = join(dir, "mixed");
      const args = [file, "--out", out, "--scenario", "cheap_gas,no_supply", "--solver", "highs"];
      assert.equal(await withQueue(redis.url, args), 2);
      const sweep = await readJson(join(out, "sweep.json"));
      assert.deepEqual(sweep.scenarios.map((s: { termination: string }) => s.termination), [
        "optimal",
        "infeasible",
      ]);
    });

    await t.step("refused before any job: an unknown scenario, --write-lp", async () => {
      const before = await redisKeys(redis.port);
      const out = join(dir, "refused");
      assert.equal(await withQueue(redis.url, [file, "--out", out, "--scenario", "nope"]), 1);
      assert.equal(
        await withQueue(redis.url, [file, "--out", out, "--write-lp", join(dir, "m.lp")]),
        1,
      );
      assert.equal(await redisKeys(redis.port), before, "no job was submitted");
    });
  } finally {
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.status));
    await redis.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("model-run on a queue that does not answer: exit 1 with the reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = await nationalFile(dir);
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr as Deno.NetAddr;
    listener.close(); // nothing listens there now
    const lines: string[] = [];
    const error = console.error;
    console.error = (line: string) => lines.push(line);
    try {
      const code = await withQueue(`redis://127.0.0.1:${port}`, [file, "--out", join(dir, "o")]);
      assert.equal(code, 1);
    } finally {
      console.error = error;
    }
    assert.match(
      lines.at(-1)!,
      new RegExp(`job queue at redis://127.0.0.1:${port}/0 does not answer`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** DBSIZE of the test Redis. */
async function redisKeys(port: number): Promise<string> {
  const out = await new Deno.Command("redis-cli", {
    args: ["-p", String(port), "DBSIZE"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}
