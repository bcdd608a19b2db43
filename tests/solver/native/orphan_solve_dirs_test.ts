import assert from "node:assert/strict";
import {
  removeOrphanSolveDirs,
  solveDirPrefix,
} from "../../../lib/solver/native/orphan_solve_dirs.ts";

Deno.test("removeOrphanSolveDirs() removes the solve directories of ended processes only", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "orphans-" });
  try {
    // A process that has ended: its pid is free (until reused, which a fresh child's is not).
    const ended = new Deno.Command("true").spawn();
    await ended.status;
    const dead = `${tmp}/native-cbc-${ended.pid}-abc123`;
    const mine = await Deno.makeTempDir({ dir: tmp, prefix: solveDirPrefix("clp") });
    const other = `${tmp}/native-glpk-1-xyz`; // pid 1 is always alive
    const unrelated = `${tmp}/native-notes`;
    for (const dir of [dead, other, unrelated]) await Deno.mkdir(dir);
    await Deno.writeTextFile(`${dead}/model.lp`, "min: x;\n");
    assert.deepEqual(await removeOrphanSolveDirs(tmp), [dead]);
    const left = [...Deno.readDirSync(tmp)].map((e) => `${tmp}/${e.name}`).sort();
    assert.deepEqual(left, [mine, other, unrelated].sort());
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("removeOrphanSolveDirs() of a directory that does not exist removes nothing", async () => {
  assert.deepEqual(await removeOrphanSolveDirs("/nonexistent/tmp"), []);
});
