/**
 * Reads a native HiGHS binary's solution file (`--solution_file FILE`, raw style; HiGHS
 * documentation "Solution file" / HighsSolution.cpp writeSolutionFile): `Model status` and its
 * text on the next line, then `# Primal solution values` (a `Feasible`/`Infeasible`/`None` line,
 * `Objective V`, `# Columns N` with N lines `name value`, `# Rows N` likewise) and
 * `# Dual solution values` in the same layout; `# Basis` follows and is ignored.
 */
import type { NativeSolution } from "./native_solution.ts";
import { parseNumber } from "./native_solution.ts";
import { modelStatusText, terminationOf } from "../termination.ts";

/** HiGHS's model status texts mapped back to its codes' Termination. */
function highsTermination(status: string) {
  for (let code = 0; code < 20; code++) {
    if (modelStatusText(code).toLowerCase() === status.toLowerCase()) return terminationOf(code);
  }
  return "error" as const;
}

/** Reads `text`; `mip`: the LP was a MIP (its duals are not reported). */
export function readHighsSolution(text: string, mip: boolean): NativeSolution {
  const lines = text.split("\n").map((l) => l.trim());
  const at = lines.findIndex((l) => /^model status/i.test(l));
  // Older versions write `Model status: Optimal` on one line.
  const inline = at >= 0 ? /^model status\s*:\s*(.+)$/i.exec(lines[at]!)?.[1] : undefined;
  const status = inline ?? (at >= 0 ? lines[at + 1] ?? "" : "");
  const termination = highsTermination(status);
  const section = (title: RegExp) => {
    const start = lines.findIndex((l) => title.test(l));
    if (start < 0 || !/^feasible$/i.test(lines[start + 1] ?? "")) return undefined;
    const cols = new Map<string, number>();
    const rows = new Map<string, number>();
    let target: Map<string, number> | undefined;
    let left = 0;
    for (let i = start + 2; i < lines.length; i++) {
      const line = lines[i]!;
      const header = /^# (Columns|Rows) (\d+)/.exec(line);
      if (header) {
        target = header[1] === "Columns" ? cols : rows;
        left = Number(header[2]);
        continue;
      }
      if (line.startsWith("#") && left === 0) {
        if (target === rows) break;
        continue;
      }
      if (target === undefined || left === 0 || line === "") continue;
      const t = line.split(/\s+/);
      // `name value`, or a bare value by position in files written without names.
      const name = t.length >= 2 ? t[0]! : String(target.size);
      target.set(name, parseNumber(t.length >= 2 ? t[1]! : t[0]!));
      left--;
      if (left === 0 && target === rows) break;
    }
    return { cols, rows };
  };
  const primal = section(/^# Primal solution values/i);
  const dual = mip ? undefined : section(/^# Dual solution values/i);
  const hasPrimal = primal !== undefined &&
    (termination === "optimal" || (mip && termination !== "error" &&
      termination !== "infeasible" && termination !== "unbounded"));
  return {
    termination,
    status,
    ...(hasPrimal ? { colValues: primal.cols } : {}),
    ...(hasPrimal && dual !== undefined ? { rowDuals: dual.rows } : {}),
  };
}
