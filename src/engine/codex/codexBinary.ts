import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const TARGETS: Record<string, { pkg: string; triple: string }> = {
  "linux-x64": { pkg: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { pkg: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x64": { pkg: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-arm64": { pkg: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
};

/**
 * The native Codex binary: CODEX_BIN, else the pinned @openai/codex platform package, else
 * `codex` on PATH. Native, not the npm Node wrapper: killing the wrapper's group with SIGKILL
 * would orphan the real binary on Node versions without execve.
 */
export function resolveCodexBinary(explicit?: string): string | null {
  if (explicit) return fs.existsSync(explicit) ? path.resolve(explicit) : null;
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target) {
    try {
      const pkgJson = require.resolve(`${target.pkg}/package.json`);
      const bin = path.join(path.dirname(pkgJson), "vendor", target.triple, "bin", "codex");
      if (fs.existsSync(bin)) return bin;
    } catch {
      // not installed for this platform: fall back to PATH
    }
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, "codex");
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** Extra PATH entries the packaged binary expects (its bundled ripgrep). */
export function codexSupportPath(bin: string): string | null {
  const dir = path.join(path.dirname(path.dirname(bin)), "codex-path");
  return fs.existsSync(dir) ? dir : null;
}
