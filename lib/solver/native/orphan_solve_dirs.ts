/**
 * The temporary directory of each command-line solve (its LP file, often hundreds of MB) carries
 * the pid of the process that made it. A process killed with kill -9 cannot remove its own;
 * `removeOrphanSolveDirs` (run when a runner service or queue worker starts) removes those whose
 * process is gone, and leaves those of every live process on the machine alone.
 */

/** The temporary-directory prefix of a solve by `solver` in this process. */
export function solveDirPrefix(solver: string): string {
  return `native-${solver}-${Deno.pid}-`;
}

const SOLVE_DIR = /^native-[a-z_]+-(\d+)-/;

function processAlive(pid: number): boolean {
  try {
    // Signal 0 is not offered by Deno.kill; /proc tells on Linux, SIGCONT is harmless elsewhere.
    if (Deno.build.os === "linux") return Deno.statSync(`/proc/${pid}`).isDirectory;
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return error instanceof Deno.errors.PermissionDenied;
  }
}

/** The system's temporary directory, as Deno.makeTempDir picks it. */
function systemTmpDir(): string {
  return Deno.env.get("TMPDIR") ?? "/tmp";
}

/** Removes the solve directories under `tmpDir` whose process has ended; returns their paths. */
export async function removeOrphanSolveDirs(tmpDir = systemTmpDir()): Promise<string[]> {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(tmpDir));
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const match = entry.isDirectory ? SOLVE_DIR.exec(entry.name) : null;
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === Deno.pid || processAlive(pid)) continue;
    const path = `${tmpDir}/${entry.name}`;
    try {
      await Deno.remove(path, { recursive: true });
      removed.push(path);
    } catch {
      // Another process's (or already gone): not ours to insist on.
    }
  }
  return removed;
}
