/**
 * A DuckDB store file held open read-write by a child process, for tests of what a second
 * process sees (DuckDB locks a file per process: a second instance in the same process is let
 * in).
 */

/** The child holding the store; `release()` ends it. */
export interface StoreHolder {
  release(): Promise<void>;
}

/** Opens `path` in a child Deno process and resolves once the child holds it. */
export async function holdStoreInChild(path: string): Promise<StoreHolder> {
  const storeModule = new URL("../lib/store/store.ts", import.meta.url).href;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { openStore } from ${JSON.stringify(storeModule)};
       await openStore(${JSON.stringify(path)}); console.log("open");
       await new Promise((resolve) => setTimeout(resolve, 60_000));`,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  if (!new TextDecoder().decode(value).includes("open")) {
    child.kill();
    throw new Error(`The child could not open ${path}`);
  }
  return {
    async release() {
      child.kill();
      await child.stdout.cancel();
      await child.status;
    },
  };
}
