import assert from "node:assert/strict";
import { join } from "node:path";

const FIXTURES = new URL("../fixtures/tabula/", import.meta.url).pathname;
const GOOD = join(FIXTURES, "good");
const BROKEN = join(FIXTURES, "broken");

Deno.test("pipelines/tabula.ts CLI exits 1 and prints every problem", async () => {
  const cli = new URL("../../pipelines/tabula.ts", import.meta.url).pathname;
  const run = (dir: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, dir],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
  const bad = await run(BROKEN);
  assert.equal(bad.code, 1);
  const errors = new TextDecoder().decode(bad.stderr).trim().split("\n");
  assert.equal(errors.filter((l) => /\.csv:\d+: \w+: /.test(l)).length, 7);
  assert.match(new TextDecoder().decode(bad.stdout), /7 problems/);
  const good = await run(GOOD);
  assert.equal(good.code, 0);
  assert.match(new TextDecoder().decode(good.stdout), /3 files, 7 rows .* 0 problems/);
});
