import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// src/bin/main.ts starts the bundled CLI through V8's code cache (dist/bin/cli/.v8-cache). A cache
// file is compiled code: it must be read only when this user wrote it and nobody else may change
// it or its folder. What is observable from outside: a cache that was used is left as it is, a
// cache that was refused is compiled again and replaced when the process exits (a new file).
// A copy of dist/bin of this test's own (beside it, so that packages and the package root resolve
// as from dist/bin): the CLI processes of other tests use and write the shared cache meanwhile.
const BIN = path.resolve(`dist/bin-code-cache-${process.pid}`);
const CLI = path.join(BIN, "main.js");
const CACHE = path.join(BIN, "cli", ".v8-cache");
const MAIN_CACHE = () => {
  const name = fs.readdirSync(CACHE).find((n) => n.startsWith("main.cjs."));
  if (!name) throw new Error(`no cache of main.cjs in ${CACHE}`);
  return path.join(CACHE, name);
};

async function help(): Promise<void> {
  const run = await execa(process.execPath, [CLI, "help"], {
    env: { CODEXPI_ENV_FILE: "none" },
    reject: false,
  });
  expect(run.exitCode).toBe(0);
  expect(run.stdout).toContain("usage: codexpi");
}

describe("the CLI's code cache", () => {
  beforeAll(() => {
    fs.cpSync(path.resolve("dist/bin"), BIN, {
      recursive: true,
      filter: (src) => !src.endsWith(".v8-cache"),
    });
  });
  afterAll(() => fs.rmSync(BIN, { recursive: true, force: true }));

  it("is written by a first start and used by the next; a cache others may write, or in a folder others may write, is not read", async () => {
    await help();
    const cached = MAIN_CACHE();
    const first = fs.statSync(cached).ino;
    // Positive control: a trusted cache is read, so it is not replaced.
    await help();
    expect(fs.statSync(cached).ino).toBe(first);

    const folderMode = fs.statSync(CACHE).mode & 0o777;
    try {
      fs.chmodSync(cached, 0o666);
      await help();
      const afterFile = fs.statSync(cached);
      expect(afterFile.ino).not.toBe(first); // refused, compiled again, replaced
      expect(afterFile.mode & 0o022).toBe(0); // and the new one is the user's alone

      fs.chmodSync(CACHE, 0o777);
      const before = fs.statSync(cached).ino;
      await help();
      expect(fs.statSync(cached).ino).not.toBe(before);
    } finally {
      fs.chmodSync(CACHE, folderMode);
    }
  });
});
