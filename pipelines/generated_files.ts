/**
 * Generated files kept in the repository and checked against a rebuild from their sources
 * (golden files): the technology catalogue (`catalogue_build.ts`) and the profile catalogue
 * (`profiles_build.ts`) both write, check and run their CLI through these helpers, and
 * `validate.ts` runs the same check.
 *
 * A check writes nothing over the committed files: rebuilt copies of the files that differ go to
 * a `-changed` folder (git-ignored) for a diff, and are never accepted automatically.
 */
import { parseArgs } from "node:util";

/** A set of generated files: how to build them and how to report on them. */
export interface GeneratedFileSet {
  /** Name in messages, e.g. "Technology catalogue". */
  readonly label: string;
  /** The command that rebuilds the files, named in the out-of-date message. */
  readonly command: string;
  /** Folder (relative to the root) for rebuilt copies of differing files. */
  readonly changedDir: string;
  /**
   * Folder (relative to the root) whose files all come from the build: a file in it that the
   * build does not produce is a difference, and a write removes it. Sub-folders are not read.
   */
  readonly ownedDir?: string;
  /** Every output file's text by path relative to `root`. */
  build(root: string): Promise<Map<string, string>>;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/** Files in `<root>/<dir>` that are not in `files`, relative to `root`, sorted. */
async function staleFiles(
  root: string,
  dir: string,
  files: ReadonlyMap<string, string>,
): Promise<string[]> {
  const stale: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isFile && !files.has(path)) stale.push(path);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return stale.sort();
}

/**
 * Compares rebuilt `files` with the files under `root`; returns one line per difference (empty
 * when equal), e.g. `catalogues/storage.json: differs from a rebuild`, `...: missing`, or
 * `...: not produced by the build` for a stray file in the owned folder. Writes rebuilt copies of
 * the differing files under `<root>/<changedDir>/`.
 */
export async function checkGeneratedFiles(
  root: string,
  files: ReadonlyMap<string, string>,
  set: Pick<GeneratedFileSet, "changedDir" | "ownedDir">,
): Promise<string[]> {
  const differences: string[] = [];
  for (const [path, text] of files) {
    const committed = await readOrNull(`${root}/${path}`);
    if (committed === text) continue;
    differences.push(`${path}: ${committed === null ? "missing" : "differs from a rebuild"}`);
    const copy = `${root}/${set.changedDir}/${path}`;
    await Deno.mkdir(copy.slice(0, copy.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(copy, text);
  }
  if (set.ownedDir !== undefined) {
    for (const path of await staleFiles(root, set.ownedDir, files)) {
      differences.push(`${path}: not produced by the build`);
    }
  }
  return differences;
}

/**
 * Writes `text` to `path` atomically: into a temporary file in the same folder, then renamed over
 * `path`, so a reader sees the old file or the new one, never a part of it.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/") + 1);
  const temporary = `${dir}.${path.slice(dir.length)}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Writes `files` under `root` in their order, each atomically (`writeFileAtomic`), then removes
 * files of the owned folder the build no longer makes.
 */
export async function writeGeneratedFiles(
  root: string,
  files: ReadonlyMap<string, string>,
  set: Pick<GeneratedFileSet, "ownedDir">,
): Promise<void> {
  const stale = set.ownedDir === undefined ? [] : await staleFiles(root, set.ownedDir, files);
  for (const [path, text] of files) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await writeFileAtomic(`${root}/${path}`, text);
  }
  for (const path of stale) await Deno.remove(`${root}/${path}`);
}

/**
 * The CLI of a build, `[--root .] [--check]`: writes the files, or with `--check` compares them
 * and exits 1 when they differ. Returns the exit code.
 */
export async function runGeneratedFilesCli(set: GeneratedFileSet, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { root: { type: "string", default: "." }, check: { type: "boolean", default: false } },
  });
  const files = await set.build(values.root);
  if (values.check) {
    const differences = await checkGeneratedFiles(values.root, files, set);
    if (differences.length > 0) {
      console.error(
        `${set.label} is out of date (rebuild with ${set.command}; rebuilt copies in ` +
          `${set.changedDir}/):\n${differences.join("\n")}`,
      );
      return 1;
    }
    console.log(`${set.label} up to date: ${files.size} files.`);
    return 0;
  }
  await writeGeneratedFiles(values.root, files, set);
  console.log(`Wrote ${files.size} files.`);
  return 0;
}
