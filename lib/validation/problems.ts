/**
 * Problems found in data files, collected all at once and reported together.
 *
 * Row convention: `row` is the 1-based data row of the file (the first row after the header is
 * row 1); row 0 means the file or its header as a whole.
 */

/** One problem in one cell, row or file. */
export interface Problem {
  /** File path as given to the reader (relative to the working directory where possible). */
  readonly file: string;
  /** 1-based data row (first row after the header = 1); 0 for the file or header as a whole. */
  readonly row: number;
  /** Raw column name; "" when the problem concerns the whole row or file. */
  readonly column: string;
  readonly message: string;
}

/** One line per problem: `file:row: column: message`. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.row}: ${p.column || "-"}: ${p.message}`;
}

/** Thrown when data files have problems; carries every problem found. */
export class DataValidationError extends Error {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    const head = problems.slice(0, 20).map(formatProblem).join("\n");
    const more = problems.length > 20 ? `\n... and ${problems.length - 20} more` : "";
    super(`${problems.length} problem(s) in the data files:\n${head}${more}`);
    this.name = "DataValidationError";
    this.problems = problems;
  }
}
