/**
 * solveNative() with Gurobi, CPLEX, SCIP and a native HiGHS, which are not installed here: a
 * stand-in script takes each one's place, prints the arguments it was given and writes the
 * hand-written sample solution (tests/fixtures/solver_solutions/) where the real solver would,
 * so the options passed and the whole read-back path are checked. solveNative names the file's
 * columns x0, x1, ... and its rows c0, c1, ... (a ranged row c2_lo and c2_hi), as the samples do.
 */
import assert from "node:assert/strict";
import { solveNative } from "../../../lib/solver/native/solve_native.ts";
import type { CommandLineSolver } from "../../../lib/solver/solver_names.ts";
import { denseLp } from "../_small_lps.ts";

const FIXTURES = new URL("../../fixtures/solver_solutions/", import.meta.url).pathname;

/** min x0 + 2 x1 + 1 with demand (c0), cap (c1) and a ranged `spread` (c2_lo, c2_hi). */
const lp = denseLp({
  cost: [1, 2],
  offset: 1,
  rows: [
    { name: "demand", coefs: [1, 1], lower: 4, upper: Infinity },
    { name: "cap", coefs: [1, 0], lower: -Infinity, upper: 3 },
    { name: "spread", coefs: [1, -1], lower: -5, upper: 5 },
  ],
});

/** A stand-in binary that copies `fixture` to the solution path its arguments name. */
async function standIn(dir: string, fixture: string): Promise<string> {
  const path = `${dir}/solver_${fixture.replace(/\W/g, "_")}`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh
prev=""
for a in "$@"; do
  echo "ARG $a"
  case "$a" in
    ResultFile=*) cp "${FIXTURES}${fixture}" "\${a#ResultFile=}" ;;
    "write solution "*) cp "${FIXTURES}${fixture}" "\${a#write solution }" ;;
    "write "*) cp "${FIXTURES}${fixture}" "\${a#write }" ;;
  esac
  [ "$prev" = "--solution_file" ] && cp "${FIXTURES}${fixture}" "$a"
  [ "$prev" = "--options_file" ] && sed 's/^/OPT /' "$a"
  prev="$a"
done
`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

const cases: [CommandLineSolver, string, RegExp[]][] = [
  ["gurobi", "gurobi_optimal.json", [/^ARG TimeLimit=7$/, /^ARG MIPGap=0.01$/, /^ARG Threads=2$/]],
  ["cplex", "cplex_optimal.sol", [
    /^ARG set timelimit 7$/,
    /^ARG set mip tolerances mipgap 0.01$/,
    /^ARG set threads 2$/,
    /^ARG optimize$/,
  ]],
  ["scip", "scip_optimal.sol", [/^ARG set limits time 7$/, /^ARG set limits gap 0.01$/]],
  ["highs_native", "highs_optimal.sol", [
    /^OPT time_limit = 7$/,
    /^OPT mip_rel_gap = 0.01$/,
    /^OPT threads = 2$/,
  ]],
];

for (const [name, fixture, expectedArgs] of cases) {
  Deno.test(`solveNative(${name}) passes its options and reads its solution file back`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "native-standin-" });
    try {
      const path = await standIn(dir, fixture);
      const lines: string[] = [];
      const outcome = await solveNative(
        { name, path, version: "1.0", description: `${name} 1.0 (native)` },
        lp,
        { timeLimitS: 7, mipRelGap: 0.01, threads: 2 },
        { onLog: (l) => lines.push(l) },
        { tmpDir: dir },
      );
      for (const pattern of expectedArgs) {
        assert.ok(lines.some((l) => pattern.test(l)), `${pattern} in ${lines.join(" | ")}`);
      }
      assert.equal(outcome.termination, "optimal");
      assert.deepEqual([...outcome.colValue], [3, 1]);
      // c·x + offset, whatever the file says.
      assert.equal(outcome.objective, 6);
      if (name === "scip") assert.equal(outcome.rowDual.length, 0);
      else assert.deepEqual([...outcome.rowDual], [2, -1, 0]);
      assert.equal(outcome.solver, `${name} 1.0 (native)`);
      // The solve's temporary directory is gone: only the stand-in is left.
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [path.split("/").pop()]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("solveNative() stops a solver that overruns its time limit: time_limit, no solution", async () => {
  const dir = await Deno.makeTempDir({ prefix: "native-standin-" });
  try {
    // clp's barrier does not look at its -sec: a stand-in that never stops does the same.
    const path = `${dir}/stubborn`;
    await Deno.writeTextFile(path, "#!/bin/sh\necho started\nexec sleep 30\n");
    await Deno.chmod(path, 0o755);
    const lines: string[] = [];
    let pid = 0;
    const started = performance.now();
    const outcome = await solveNative(
      { name: "clp", path, version: "1.0", description: "clp 1.0 (native)" },
      lp,
      { timeLimitS: 0.2 },
      { onLog: (l) => lines.push(l) },
      { tmpDir: dir, overrunMs: 100, onStart: (p) => (pid = p) },
    );
    assert.ok(performance.now() - started < 2000);
    assert.equal(outcome.termination, "time_limit");
    assert.equal(outcome.status, "Time limit (stopped by the runner)");
    assert.equal(outcome.objective, null);
    assert.equal(outcome.colValue.length, 0);
    assert.ok(lines.includes("started"));
    assert.match(lines.at(-1)!, /did not stop at its time limit of 0\.2 s; stopped after 0\.\d s/);
    assert.throws(() => Deno.kill(pid, "SIGCONT"), "the stand-in is gone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
