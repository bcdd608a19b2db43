/**
 * A test double of the ModelRunner seam, for the job mechanics of the runner service only
 * (queueing, streaming, cancelling, pruning): it builds no LP and solves nothing. The
 * integrator's end-to-end tests use the HiGHS runner.
 *
 * It obeys the seam: `prepare` validates a tiny body shape and lists every problem by path;
 * `runBody` parses, prepares and runs on this thread (`runBodyHere`); `run` logs a line and
 * reports progress per step, waits `step_ms` between steps, resolves with
 * termination `interrupted` as soon as its signal aborts, and can be told to fail or to end
 * infeasible. Body: `{ steps: 1..1000, step_ms?: 0..10000, fail?: string, infeasible?: true }`.
 */
import type { ModelProblem } from "../../../lib/model/model_problem.ts";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";
import type { ModelRunner, RunHooks, RunResult } from "../../../lib/runner/model_runner.ts";
import { abortableDelay } from "../../../lib/concurrency/abortable_delay.ts";
import { runBodyHere } from "../../../lib/runner/run_body_here.ts";

/** What a test body asks of the double. */
export interface TestRunBody {
  steps: number;
  step_ms?: number;
  fail?: string;
  infeasible?: boolean;
}

const KEYS = new Set(["steps", "step_ms", "fail", "infeasible"]);

/** A ModelRunner double that counts the runs it started and those that saw their signal. */
export interface TestRunner extends ModelRunner {
  readonly counts: { started: number; aborted: number };
}

/** A double with the name `solverName`. */
export function createTestRunner(solverName = "TestSolver 0.0 (double)"): TestRunner {
  const asked = new WeakMap<
    ResolvedModel,
    Required<Omit<TestRunBody, "fail">> & { fail?: string }
  >();
  const counts = { started: 0, aborted: 0 };
  const double: TestRunner = {
    solverName,
    counts,
    runBody: (body, hooks) => runBodyHere(double, body, hooks),
    prepare(body) {
      const problems: ModelProblem[] = [];
      if (body === null || typeof body !== "object" || Array.isArray(body)) {
        return { ok: false, problems: [{ path: "", message: "must be an object" }] };
      }
      const input = body as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!KEYS.has(key)) problems.push({ path: key, message: "unknown key" });
      }
      const steps = input["steps"];
      if (!Number.isInteger(steps) || (steps as number) < 1 || (steps as number) > 1000) {
        problems.push({ path: "steps", message: "must be an integer from 1 to 1000" });
      }
      const stepMs = input["step_ms"] ?? 0;
      if (typeof stepMs !== "number" || !(stepMs >= 0 && stepMs <= 10_000)) {
        problems.push({ path: "step_ms", message: "must be a number from 0 to 10000" });
      }
      const fail = input["fail"];
      if (fail !== undefined && typeof fail !== "string") {
        problems.push({ path: "fail", message: "must be a string" });
      }
      const infeasible = input["infeasible"] ?? false;
      if (typeof infeasible !== "boolean") {
        problems.push({ path: "infeasible", message: "must be a boolean" });
      }
      if (problems.length > 0) return { ok: false, problems };
      const n = steps as number;
      const model: ResolvedModel = {
        name: "double",
        timestamps: Array.from(
          { length: n },
          (_, t) => new Date(Date.UTC(2005, 0, 1, t)).toISOString().slice(0, 19),
        ),
        resolution: new Array(n).fill(1),
        weights: new Array(n).fill(1),
        locations: [],
        technologies: [],
        locTechs: [],
        costClasses: ["monetary"],
        objectiveWeights: { monetary: 1 },
        ensureFeasibility: false,
        bigM: 1e6,
        cyclicStorage: false,
        solver: { method: "choose" },
      };
      asked.set(model, {
        steps: n,
        step_ms: stepMs as number,
        infeasible: infeasible as boolean,
        ...(typeof fail === "string" ? { fail } : {}),
      });
      return { ok: true, model };
    },
    async run(model: ResolvedModel, hooks: RunHooks): Promise<RunResult> {
      const plan = asked.get(model);
      if (plan === undefined) throw new TypeError("run: the model was not prepared by this runner");
      counts.started++;
      hooks.progress({ phase: "build", pct: 0 });
      hooks.log(`[runner] ${plan.steps} steps`);
      hooks.progress({ phase: "build", pct: 100 });
      const series: number[] = [];
      let objective = 0;
      for (let t = 0; t < plan.steps; t++) {
        if (hooks.signal.aborted) break;
        await abortableDelay(plan.step_ms, hooks.signal);
        if (hooks.signal.aborted) break;
        // Real, if small, work: a value per step that the result reports.
        const value = Math.sin(t / 3) ** 2;
        series.push(value);
        objective += value;
        hooks.log(`step ${t + 1}/${plan.steps} value ${value.toFixed(6)}`);
        hooks.progress({ phase: "solve", pct: Math.round(((t + 1) / plan.steps) * 100) });
      }
      if (hooks.signal.aborted) {
        counts.aborted++;
        return {
          success: false,
          termination: "interrupted",
          termination_condition: "interrupted",
          objective: null,
        };
      }
      if (plan.fail !== undefined) throw new Error(plan.fail);
      if (plan.infeasible) {
        return {
          success: false,
          termination: "infeasible",
          termination_condition: "infeasible",
          objective: null,
          conflicts: ["balance::x::electricity::2005-01-01T00:00:00"],
        };
      }
      return {
        success: true,
        termination: "optimal",
        termination_condition: "optimal",
        objective,
        capacities: { "x::pv": 1 },
        timestamps: model.timestamps,
        dispatch: { pv: series },
        carrier_prod: { columns: ["x::pv::electricity"], values: [series] },
      };
    },
  };
  return double;
}

/** A test body as the bytes a job holds. */
export function bodyBytes(body: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(body));
}

/** `{ method: "POST", body, Content-Type: application/json }` for `/run`. */
export function runRequest(body: unknown): RequestInit {
  return {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  };
}
