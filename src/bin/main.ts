#!/usr/bin/env node
// The CLI's entry, dist/bin/main.js. `codexpi worker` starts for every prompt, and each CLI command
// is a process: a fifth of a start-up was V8 compiling the ~2.5 MB bundle (Node 20 has no compile
// cache for ES modules). The CLI is bundled as CommonJS (dist/bin/cli/, scripts/bundle-cli.ts) and
// loaded here through V8's code cache: the first run of a build compiles and writes the cache, the
// next ones start from it (0.34 s of CPU became 0.23 s per start; dist/scripts/bench-cli-start.js).
import fs from "node:fs";
import { Module, createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const CLI_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "cli");
const CACHE_DIR = path.join(CLI_DIR, ".v8-cache");

/** The parts of Node's CommonJS loader this hook uses (not in @types/node). */
interface LoaderModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}
interface Loader {
  prototype: LoaderModule;
  wrap(source: string): string;
  _resolveFilename(request: string, parent: LoaderModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
}

const loader = Module as unknown as Loader;
const uid = process.getuid?.() ?? -1;
/** Scripts compiled without a usable cache: their cache is written when the process exits. */
const toWrite: { script: vm.Script; file: string }[] = [];

/**
 * A cache file is compiled code: it is read only when this user wrote it and nobody else may
 * write it or its folder, the same trust as the bundle beside it.
 */
function trustedCache(file: string): Buffer | undefined {
  try {
    const folder = fs.statSync(CACHE_DIR);
    const stat = fs.statSync(file);
    const ours = (s: fs.Stats) => s.uid === uid && (s.mode & 0o022) === 0;
    return ours(folder) && ours(stat) ? fs.readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

function compileCached(module: LoaderModule, content: string, filename: string): unknown {
  const file = path.join(CACHE_DIR, `${path.basename(filename)}.${process.version}.${process.arch}.bin`);
  const cachedData = trustedCache(file);
  const script = new vm.Script(loader.wrap(content.replace(/^#!.*/, "")), {
    filename,
    cachedData,
    // No `import()` here: a script compiled from the cache has no loader for it (the build
    // refuses a bundle that keeps one, scripts/bundle-cli.ts).
  });
  if (!cachedData || script.cachedDataRejected) toWrite.push({ script, file });
  const require = Object.assign((id: string) => module.require(id), {
    resolve: (request: string, options?: unknown) => loader._resolveFilename(request, module, false, options),
    main: process.mainModule,
    cache: loader._cache,
  });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
  return wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
}

/** Written at exit, so that the cache holds the functions this run compiled, not only the top level. */
function writeCaches(): void {
  for (const { script, file } of toWrite.splice(0)) {
    try {
      fs.mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });
      const partial = `${file}.${process.pid}`;
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(partial, file); // atomic: another process reads a whole cache or none
    } catch {
      // A read-only install (another user, a jail) starts without a cache, as before.
    }
  }
}

const compile = loader.prototype._compile;
loader.prototype._compile = function (this: LoaderModule, content: string, filename: string) {
  if (path.dirname(filename) !== CLI_DIR) return compile.call(this, content, filename);
  return compileCached(this, content, filename);
};
process.once("exit", writeCaches);
createRequire(import.meta.url)("./cli/main.cjs");
