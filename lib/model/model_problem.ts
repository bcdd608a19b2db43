/**
 * A problem with a submitted model, named by its JSON path, so a 400 can list every one at once.
 */

/** One problem at one place of the model JSON. */
export interface ModelProblem {
  /** JSON path such as `technologies[2].constraints.energy_cap_mx` ("" = the whole model). */
  readonly path: string;
  readonly message: string;
}

/** Thrown when a model cannot be used; carries every problem found. */
export class ModelValidationError extends Error {
  readonly problems: readonly ModelProblem[];

  constructor(problems: readonly ModelProblem[]) {
    const head = problems.slice(0, 20).map((p) => `${p.path || "(model)"}: ${p.message}`);
    const more = problems.length > 20 ? [`... and ${problems.length - 20} more`] : [];
    super(`${problems.length} problem(s) in the model:\n${[...head, ...more].join("\n")}`);
    this.name = "ModelValidationError";
    this.problems = problems;
  }
}

/** `a.b[3].c` from path segments. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += out === "" ? String(s) : `.${String(s)}`;
  }
  return out;
}

/** Collects one problem at a JSON path. */
export type ReportProblem = (path: string, message: string) => void;

/** `problems` without repeats (the same path and message reported twice), in order. */
export function dedupeProblems(problems: readonly ModelProblem[]): ModelProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
