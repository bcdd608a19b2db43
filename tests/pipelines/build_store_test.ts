import assert from "node:assert/strict";
import { join } from "node:path";
import { countVariants, withTemp } from "../store/_built_store.ts";

Deno.test("pipelines/build_store.ts CLI builds, then reports up to date", async () => {
  await withTemp(async (dir) => {
    const cli = new URL("../../pipelines/build_store.ts", import.meta.url).pathname;
    const run = (...args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", cli, ...args],
        stdout: "piped",
        stderr: "piped",
        env: { STORE_PATH: join(dir, "env.duckdb") },
      }).output();
    const built = await run();
    assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
    assert.match(new TextDecoder().decode(built.stdout), /env\.duckdb built in \d+ ms/);
    const again = await run();
    assert.match(new TextDecoder().decode(again.stdout), /env\.duckdb is up to date/);
    const forced = await run("--force", join(dir, "arg.duckdb"));
    assert.match(new TextDecoder().decode(forced.stdout), /arg\.duckdb built/);
    assert.equal(await countVariants(join(dir, "arg.duckdb")), 2147);
  });
});
