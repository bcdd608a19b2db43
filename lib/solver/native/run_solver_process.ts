/**
 * Runs a solver binary as a child process in its own process group, relays its output line by
 * line as it writes it, and kills the whole group (the solver and anything it started) when the
 * caller aborts: SIGTERM, then SIGKILL after a grace period.
 *
 * Its own group also means a parent killed with kill -9 would leave it running. On Linux the
 * solver is started through util-linux's `setpriv --pdeathsig KILL`, which execs it in place
 * (same pid) with a parent-death signal: when the thread that started it (this process's, or the
 * job Worker's) ends, the kernel kills the solver.
 */
import { whichBinary } from "./find_native_solvers.ts";

/** How a solver process ended. */
export interface ProcessEnd {
  /** Exit code; null when it was killed or did not end in time after the kill. */
  readonly code: number | null;
  /** True when the caller's signal stopped it. */
  readonly interrupted: boolean;
  /** The process group's id (the child's pid). */
  readonly pid: number;
}

/** Settings of one run. */
export interface SolverProcessOptions {
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Each output line (stdout and stderr), without its newline. */
  readonly onLine?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL (default 300). */
  readonly graceMs?: number;
  /** Called with the pid once the process started (tests check it is gone). */
  readonly onStart?: (pid: number) => void;
}

/** After SIGKILL the run is reported ended at most this long later, child reaped or not. */
const AFTER_KILL_MS = 200;
/** Then at most this long for the output that was still in the pipes. */
const PIPES_MS = 100;

let deathSignalWrapper: Promise<string | undefined> | undefined;

/** `setpriv` when it can set a parent-death signal here; probed once per process. */
function findDeathSignalWrapper(): Promise<string | undefined> {
  deathSignalWrapper ??= (async () => {
    if (Deno.build.os !== "linux") return undefined;
    try {
      const probe = await new Deno.Command("setpriv", {
        args: ["--pdeathsig", "KILL", "--", "true"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      return probe.success ? "setpriv" : undefined;
    } catch {
      return undefined;
    }
  })();
  return deathSignalWrapper;
}

/** Throws Deno.errors.NotFound unless `binary` (a path, or an executable on PATH) is there. */
async function assertRunnable(binary: string): Promise<void> {
  if (!binary.includes("/")) {
    if (await whichBinary(binary, Deno.env.get("PATH") ?? "") !== undefined) return;
  } else if (await Deno.stat(binary).then((info) => info.isFile, () => false)) return;
  throw new Deno.errors.NotFound(`No such file or directory: ${binary}`);
}

function killGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Relays `stream`'s text as lines; resolves when it ends. */
async function relayLines(
  stream: ReadableStream<Uint8Array>,
  onLine: ((line: string) => void) | undefined,
): Promise<void> {
  let rest = "";
  try {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      if (onLine === undefined) continue;
      rest += text;
      let nl: number;
      while ((nl = rest.indexOf("\n")) >= 0) {
        onLine(rest.slice(0, nl).replace(/\r$/, ""));
        rest = rest.slice(nl + 1);
      }
    }
  } catch {
    // The pipe closed under a kill: what was read has been relayed.
  }
  if (rest !== "" && onLine !== undefined) onLine(rest.replace(/\r$/, ""));
}

/** Runs `binary` with `options.args` to its end, or until `options.signal` stops it. */
export async function runSolverProcess(
  binary: string,
  options: SolverProcessOptions,
): Promise<ProcessEnd> {
  const wrapper = await findDeathSignalWrapper();
  // Through setpriv a missing binary would be setpriv's failure: fail as a direct spawn does.
  if (wrapper !== undefined) await assertRunnable(binary);
  const child = new Deno.Command(wrapper ?? binary, {
    args: wrapper === undefined
      ? [...options.args]
      : ["--pdeathsig", "KILL", "--", binary, ...options.args],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // Its own process group, so that a kill reaches whatever the solver starts.
    detached: true,
  }).spawn();
  const pid = child.pid;
  options.onStart?.(pid);
  const relays = Promise.all([
    relayLines(child.stdout, options.onLine),
    relayLines(child.stderr, options.onLine),
  ]);
  const status = child.status.then(async (s) => {
    await relays;
    return s;
  });

  const signal = options.signal;
  if (signal === undefined) {
    const s = await status;
    return { code: s.signal === null ? s.code : null, interrupted: false, pid };
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const first = await Promise.race([status, aborted]);
    if (first !== "aborted") {
      return { code: first.signal === null ? first.code : null, interrupted: false, pid };
    }
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
  killGroup(pid, "SIGTERM");
  const grace = options.graceMs ?? 300;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const late = (ms: number) =>
    new Promise<"late">((resolve) => {
      timers.push(setTimeout(() => resolve("late"), ms));
    });
  try {
    if (await Promise.race([child.status, late(grace)]) === "late") {
      killGroup(pid, "SIGKILL");
      await Promise.race([child.status, late(AFTER_KILL_MS)]);
    }
    // Whatever is left of the group (a grandchild that ignored SIGTERM) goes too.
    killGroup(pid, "SIGKILL");
    // The pipes close with the group: relay what is left, without waiting long for it.
    await Promise.race([relays, late(PIPES_MS)]);
  } finally {
    for (const t of timers) clearTimeout(t);
  }
  return { code: null, interrupted: true, pid };
}
