/**
 * Which command-line solvers are on PATH here, with the version each prints: looked up in
 * parallel, each version query with a timeout, so that /health answers quickly.
 */
import type { CommandLineSolver } from "../solver_names.ts";
import { type FoundSolver, NATIVE_SOLVERS, type NativeSolverSpec } from "./native_solvers.ts";

/** A version query that takes longer (a licence server, a hung binary) gives "unknown". */
const VERSION_TIMEOUT_MS = 3000;

/** The first executable `binary` in the directories of `path` (PATH's syntax), or undefined. */
export async function whichBinary(binary: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    const candidate = `${dir.replace(/\/+$/, "")}/${binary}`;
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** The first version number (e.g. `2.10.8`, `5.0`) in `text`, or undefined. */
export function versionIn(text: string): string | undefined {
  return /(?:version|v|GLPK[^0-9\n]*)[^0-9\n]*?(\d+\.\d+(?:\.\d+)?)/i.exec(text)?.[1] ??
    /\b(\d+\.\d+(?:\.\d+)?)\b/.exec(text)?.[1];
}

async function versionOf(spec: NativeSolverSpec, binary: string): Promise<string> {
  const child = new Deno.Command(binary, {
    args: [...spec.versionArgs],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve(undefined);
    }, VERSION_TIMEOUT_MS);
  });
  try {
    const output = await Promise.race([child.output(), timeout]);
    if (output === undefined) return "unknown";
    const decoder = new TextDecoder();
    const text = decoder.decode(output.stdout) + "\n" + decoder.decode(output.stderr);
    return versionIn(text) ?? "unknown";
  } catch {
    return "unknown";
  } finally {
    clearTimeout(timer);
  }
}

/** The solver of `spec` on `path`, with its binary's path and version, or undefined. */
async function foundOn(spec: NativeSolverSpec, path: string): Promise<FoundSolver | undefined> {
  const binary = await whichBinary(spec.binary, path);
  if (binary === undefined) return undefined;
  const version = await versionOf(spec, binary);
  return {
    name: spec.name,
    path: binary,
    version,
    description: `${spec.label} ${version} (native)`,
  };
}

/**
 * The command-line solvers on `options.path` (default: the PATH variable), in NATIVE_SOLVERS'
 * order, each with its binary's path and version.
 */
export async function findNativeSolvers(
  options: { path?: string } = {},
): Promise<FoundSolver[]> {
  const path = options.path ?? Deno.env.get("PATH") ?? "";
  const found = await Promise.all(Object.values(NATIVE_SOLVERS).map((s) => foundOn(s, path)));
  return found.filter((f): f is FoundSolver => f !== undefined);
}

/** Each solver looked up on PATH once per process, only when asked for. */
const byName = new Map<CommandLineSolver, Promise<FoundSolver | undefined>>();

/**
 * The found solver called `name`, looked up once per process: only its own binary is run, so a
 * job that names cbc (in its own Worker) does not start every other solver for its version.
 */
export function findNativeSolver(name: CommandLineSolver): Promise<FoundSolver | undefined> {
  let found = byName.get(name);
  if (found === undefined) {
    found = foundOn(NATIVE_SOLVERS[name], Deno.env.get("PATH") ?? "");
    byName.set(name, found);
  }
  return found;
}

/** findNativeSolvers on PATH, each solver looked up once per process. */
export async function findNativeSolversOnce(): Promise<FoundSolver[]> {
  const names = Object.keys(NATIVE_SOLVERS) as CommandLineSolver[];
  const found = await Promise.all(names.map(findNativeSolver));
  return found.filter((f): f is FoundSolver => f !== undefined);
}
