/**
 * Locates the native Codex binary shipped in the platform package that `@openai/codex` installs
 * as an optional dependency (`@openai/codex-linux-x64` / `@openai/codex-linux-arm64`, aliases of
 * `@openai/codex@<version>-linux-<arch>`), the same way `@openai/codex/bin/codex.js` does.
 * Running the native binary directly (instead of the node wrapper) leaves one process, codex
 * itself, as the direct child.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

const TARGETS: Record<string, { pkg: string; triple: string }> = {
  "linux-x64": { pkg: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { pkg: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
};

/** Directory holding the platform package's vendor tree: `<pkg>/vendor/<triple>`. */
export function codexVendorDir(): string {
  const key = `${process.platform}-${process.arch}`;
  const target = TARGETS[key];
  if (!target) {
    throw new Error(
      `codexBinaryPath: unsupported platform ${key} (only linux-x64 and linux-arm64 are supported)`,
    );
  }
  let pkgJson: string;
  try {
    // Resolve through @openai/codex first (it is the package that depends on the platform one),
    // then from here, so both hoisted and nested node_modules layouts work.
    let from: string | undefined;
    try {
      from = require.resolve("@openai/codex/package.json");
    } catch {
      from = undefined;
    }
    pkgJson = require.resolve(
      `${target.pkg}/package.json`,
      from ? { paths: [path.dirname(from)] } : undefined,
    );
  } catch (err) {
    throw new Error(
      `codexBinaryPath: ${target.pkg} is not installed (optional dependency of @openai/codex); ` +
        `run \`npm install\` on ${key} without --omit=optional. Cause: ${(err as Error).message}`,
    );
  }
  return path.join(path.dirname(pkgJson), "vendor", target.triple);
}

/** Absolute path of the native `codex` executable; throws a clear error if it is missing. */
export function codexBinaryPath(): string {
  const bin = path.join(codexVendorDir(), "bin", "codex");
  if (!existsSync(bin)) {
    throw new Error(`codexBinaryPath: ${bin} does not exist; reinstall @openai/codex (npm ci)`);
  }
  return bin;
}
