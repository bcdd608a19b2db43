/**
 * The rolling horizon's solves as Calliope 0.6.10's `run_operate` cuts them: windows end where
 * the cumulative timestep resolution (hours) is a multiple of `window` or at the last step; each
 * is solved up to `horizon - window` hours past its end; a window whose horizon would run past the
 * timeline (and always the last one) is solved over the window alone.
 */

/** One solve: timestep indices, half-open. */
export interface OperateWindow {
  /** First timestep of the window (and of the solve). */
  readonly start: number;
  /** End of the kept part (exclusive). */
  readonly keepEnd: number;
  /** End of the solve (exclusive, >= keepEnd). */
  readonly solveEnd: number;
}

/**
 * The windows of a timeline of `resolution` (hours per step). Calliope counts window and horizon
 * in hours of cumulative resolution, which is timesteps on an hourly timeline. Empty when no
 * window fits (Calliope's "Not enough timesteps" error).
 */
export function operateWindows(
  resolution: readonly number[],
  window: number,
  horizon: number,
): OperateWindow[] {
  const n = resolution.length;
  if (n === 0) return [];
  const cumsum: number[] = [];
  let sum = 0;
  for (const r of resolution) cumsum.push(sum += r);
  const ends: number[] = [];
  for (let t = 0; t < n; t++) {
    if (isMultiple(cumsum[t]!, window) || t === n - 1) ends.push(t);
  }
  const ahead = horizon - window;
  // Calliope's horizon_ends: the steps whose cumsum is some window end's cumsum + ahead.
  const endValues = new Set(ends.map((t) => cumsum[t]! + ahead));
  const horizonEnds: number[] = [];
  for (let t = 0; t < n; t++) if (hasClose(endValues, cumsum[t]!)) horizonEnds.push(t);
  if (horizonEnds.length === 0) horizonEnds.push(ends[ends.length - 1]!);
  const windows: OperateWindow[] = [];
  for (let i = 0; i < ends.length; i++) {
    const start = i === 0 ? 0 : ends[i - 1]! + 1;
    const keepEnd = ends[i]! + 1;
    // As run_operate: the first solve uses the first horizon end; later ones beyond the horizon
    // ends found, and the last, are solved over their window only.
    const lastOne = i === ends.length - 1;
    const solveEnd = i === 0 || (!lastOne && i < horizonEnds.length)
      ? horizonEnds[i]! + 1
      : keepEnd;
    windows.push({ start, keepEnd, solveEnd: Math.max(solveEnd, keepEnd) });
  }
  return windows;
}

function isMultiple(value: number, step: number): boolean {
  const q = value / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

function hasClose(values: ReadonlySet<number>, v: number): boolean {
  for (const x of values) if (Math.abs(x - v) < 1e-9) return true;
  return false;
}
