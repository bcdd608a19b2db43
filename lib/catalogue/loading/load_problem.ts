/**
 * A problem that stops the catalogue's data files from being served, named by file and JSON
 * path, and the error that carries every problem of a start-up load.
 */
import { z } from "zod";

/** A problem that stops a load: file, JSON path ("" for the whole file) and message. */
export const loadProblemSchema = z.object({
  file: z.string(),
  path: z.string().describe("JSON path of the member; empty for the whole file"),
  message: z.string(),
});

/** A problem that stops a load. */
export type LoadProblem = z.infer<typeof loadProblemSchema>;

/** `file: path: message`, or `file: message` for the whole file. */
export function formatLoadProblem(p: LoadProblem): string {
  return p.path ? `${p.file}: ${p.path}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** Thrown when the files are invalid at start-up; carries every problem. */
export class CatalogueLoadError extends Error {
  readonly problems: readonly LoadProblem[];

  constructor(problems: readonly LoadProblem[]) {
    const head = problems.slice(0, 20).map(formatLoadProblem).join("\n");
    const more = problems.length > 20 ? `\n... and ${problems.length - 20} more` : "";
    super(
      `Cannot serve the catalogue: ${problems.length} problem(s) in the data files:\n${head}${more}`,
    );
    this.name = "CatalogueLoadError";
    this.problems = problems;
  }
}
