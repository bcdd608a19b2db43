/** Test helpers of the store-build tests: a temporary folder, and the variants a store holds. */
import { openStore } from "../../lib/store/store.ts";

/** Runs `fn` with a fresh temporary folder, removed afterwards. */
export async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Rows of `tabula_variants` in the store file at `path`. */
export async function countVariants(path: string): Promise<number> {
  const store = await openStore(path, { readOnly: true });
  try {
    const [row] = await store.all<{ n: number }>("SELECT count(*) AS n FROM tabula_variants");
    return row!.n;
  } finally {
    await store.close();
  }
}
