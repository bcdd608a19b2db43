import assert from "node:assert/strict";
import {
  findNativeSolvers,
  versionIn,
  whichBinary,
} from "../../../lib/solver/native/find_native_solvers.ts";
import { CI_SOLVERS, installed, testName } from "./_installed.ts";

Deno.test("versionIn() reads the version each solver prints", () => {
  assert.equal(versionIn("Welcome to the CBC MILP Solver \nVersion: 2.10.8 \n"), "2.10.8");
  assert.equal(versionIn("Coin LP version 1.17.6, build Nov 27 2022"), "1.17.6");
  assert.equal(versionIn("GLPSOL--GLPK LP/MIP Solver 5.0\n"), "5.0");
  assert.equal(versionIn("HiGHS version 1.7.2\n"), "1.7.2");
  assert.equal(versionIn("Gurobi Optimizer version 11.0.3 build v11.0.3rc0"), "11.0.3");
  assert.equal(versionIn("nothing here"), undefined);
});

Deno.test("findNativeSolvers() finds nothing on an empty PATH", async () => {
  assert.deepEqual(await findNativeSolvers({ path: "" }), []);
  assert.equal(await whichBinary("sh", "/nonexistent:/bin:/usr/bin") !== undefined, true);
});

for (const name of CI_SOLVERS) {
  Deno.test({
    name: testName(name, `findNativeSolvers() finds ${name} with its version`),
    ignore: installed(name) === undefined,
    fn() {
      const found = installed(name)!;
      assert.match(found.version, /^\d+\.\d+(\.\d+)?$/);
      assert.match(found.path, /^\//);
      assert.equal(found.description.endsWith(`${found.version} (native)`), true);
    },
  });
}
