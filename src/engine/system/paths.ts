import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../../config.js";

/** The package root (holds package.json), found from this file whether it runs from src/ or dist/. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "db"))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error("codexpi package root not found");
}

/** The bundled CLI entry (scripts/bundle-cli.ts) that `codexpi worker` runs from: it starts in half the time. */
export function cliEntry(): string {
  return path.join(packageRoot(), "dist", "bin", "main.js");
}

/** Directory of worker and Codex logs. */
export const logsDir = (config: Config) => path.join(config.dataDir, "logs");

/** The jail forwarder (engine/isolation/forwarder.ts), as built: a jail shows this one file. */
export function forwarderScript(): string {
  return path.join(packageRoot(), "dist", "src", "engine", "isolation", "forwarder.js");
}
