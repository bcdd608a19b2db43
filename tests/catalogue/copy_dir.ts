/** Test helper: copies the files directly in `from` into the folder `to`. */
export async function copy(from: string, to: string): Promise<void> {
  for await (const e of Deno.readDir(from)) {
    if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}
