/**
 * What the notebooks show in a cell's output: Observable Plot charts, Markdown (tables included)
 * and plain text lines, through the Deno kernel's `Deno.jupyter.display`. A notebook imports
 * them from its first cell (`import { show, showMarkdown, table } from "./display.ts";`): the
 * kernel runs in notebooks/.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";

// Observable Plot renders into linkedom's DOM; the kernel shows the markup. A chart with a
// legend, subtitle or caption is a <figure> (HTML around the SVG), a plain chart an <svg>.
// (The cast only tells the type checker, which has no DOM types here, what linkedom returns.)
type PlotDocument = NonNullable<Plot.PlotOptions["document"]>;
const { document } = parseHTML("<!DOCTYPE html><html><body></body></html>") as unknown as {
  document: PlotDocument;
};

/** Draws a chart into the cell's output. */
export async function show(options: Plot.PlotOptions): Promise<void> {
  const chart = Plot.plot({ document, ...options });
  if (chart.tagName.toLowerCase() === "svg") {
    chart.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    await Deno.jupyter.display(Deno.jupyter.svg`${chart.outerHTML}`);
  } else {
    await Deno.jupyter.display(Deno.jupyter.html`${chart.outerHTML}`);
  }
}

/** Shows Markdown text in the cell's output. */
export async function showMarkdown(text: string): Promise<void> {
  await Deno.jupyter.display(Deno.jupyter.md`${text}`);
}

/** A Markdown table from rows of cells. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * Shows plain text lines in the cell's output. (Not console.log: Deno's kernel may finish a cell
 * before the last stdout lines are sent, and they are lost; a display message is awaited.)
 */
export async function say(...lines: string[]): Promise<void> {
  await Deno.jupyter.display({ "text/plain": lines.join("\n") }, { raw: true });
}
