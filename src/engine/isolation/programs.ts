import fs from "node:fs";
import path from "node:path";

/** An executable found on PATH (or in /usr/bin, /usr/local/bin, /usr/sbin), or null. */
export function findProgram(name: string, pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of [...pathVar.split(path.delimiter), "/usr/bin", "/usr/local/bin", "/usr/sbin"]) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
