import assert from "node:assert/strict";
import {
  checkGeneratedFiles,
  type GeneratedFileSet,
  runGeneratedFilesCli,
  writeFileAtomic,
  writeGeneratedFiles,
} from "../../pipelines/generated_files.ts";

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "generated_files_test_" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const FILES = new Map([["out/a.json", "a\n"], ["out/sub/b.json", "b\n"], ["doc/c.md", "c\n"]]);

Deno.test("checkGeneratedFiles() names missing, changed and stray files; copies go aside", async () => {
  await withRoot(async (root) => {
    const set = { changedDir: "out-changed", ownedDir: "out" };
    assert.deepEqual(await checkGeneratedFiles(root, FILES, set), [
      "out/a.json: missing",
      "out/sub/b.json: missing",
      "doc/c.md: missing",
    ]);
    await writeGeneratedFiles(root, FILES, set);
    assert.deepEqual(await checkGeneratedFiles(root, FILES, set), []);

    await Deno.writeTextFile(`${root}/out/a.json`, "edited\n");
    await Deno.writeTextFile(`${root}/out/z.json`, "stray\n");
    await Deno.writeTextFile(`${root}/doc/y.md`, "not owned\n");
    assert.deepEqual(await checkGeneratedFiles(root, FILES, set), [
      "out/a.json: differs from a rebuild",
      "out/z.json: not produced by the build",
    ]);
    assert.equal(await Deno.readTextFile(`${root}/out-changed/out/a.json`), "a\n");
    assert.equal(await Deno.readTextFile(`${root}/out/a.json`), "edited\n", "left alone");
    assert.deepEqual(
      await checkGeneratedFiles(root, FILES, { changedDir: "out-changed" }),
      ["out/a.json: differs from a rebuild"],
      "without an owned folder a stray file is no difference",
    );

    await writeGeneratedFiles(root, FILES, set);
    assert.deepEqual(await checkGeneratedFiles(root, FILES, set), []);
    await assert.rejects(() => Deno.stat(`${root}/out/z.json`), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(`${root}/doc/y.md`), "not owned\n");
  });
});

Deno.test("runGeneratedFilesCli() writes, then --check reports and exits 1 on a difference", async () => {
  await withRoot(async (root) => {
    const set: GeneratedFileSet = {
      label: "Test files",
      command: "deno run -A test.ts",
      changedDir: "out-changed",
      build: () => Promise.resolve(new Map(FILES)),
    };
    const logged: string[] = [];
    const quiet = { log: console.log, error: console.error };
    console.log = (line: string) => logged.push(`log ${line}`);
    console.error = (line: string) => logged.push(`error ${line}`);
    try {
      assert.equal(await runGeneratedFilesCli(set, ["--root", root, "--check"]), 1);
      assert.equal(await runGeneratedFilesCli(set, ["--root", root]), 0);
      assert.equal(await runGeneratedFilesCli(set, ["--root", root, "--check"]), 0);
    } finally {
      Object.assign(console, quiet);
    }
    assert.deepEqual(logged, [
      "error Test files is out of date (rebuild with deno run -A test.ts; rebuilt copies in " +
      "out-changed/):\nout/a.json: missing\nout/sub/b.json: missing\ndoc/c.md: missing",
      "log Wrote 3 files.",
      "log Test files up to date: 3 files.",
    ]);
  });
});

Deno.test("writeGeneratedFiles() replaces each file by a rename: no reader sees a part of it", async () => {
  await withRoot(async (root) => {
    await writeGeneratedFiles(root, FILES, { ownedDir: "out" });
    const path = `${root}/out/a.json`;
    const before = await Deno.stat(path);
    // A reader that opened the old file keeps reading the old content.
    using reader = await Deno.open(path);
    const big = "x".repeat(1 << 20) + "\n";
    await writeGeneratedFiles(root, new Map([...FILES, ["out/a.json", big]]), { ownedDir: "out" });
    const after = await Deno.stat(path);
    assert.notEqual(after.ino, before.ino, "a new file renamed into place, not rewritten");
    assert.equal(await Deno.readTextFile(path), big);
    const old = new Uint8Array(16);
    const n = await reader.read(old);
    assert.equal(new TextDecoder().decode(old.subarray(0, n ?? 0)), "a\n");
    const names = [];
    for await (const entry of Deno.readDir(`${root}/out`)) names.push(entry.name);
    assert.deepEqual(names.sort(), ["a.json", "sub"], "no temporary file is left");
  });
});

Deno.test("writeFileAtomic() removes its temporary file when the rename fails", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/target.json`);
    await Deno.writeTextFile(`${root}/target.json/inside`, "x");
    await assert.rejects(writeFileAtomic(`${root}/target.json`, "text"));
    const names = [];
    for await (const entry of Deno.readDir(root)) names.push(entry.name);
    assert.deepEqual(names, ["target.json"]);
  });
});
