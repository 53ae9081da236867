import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { tempDir } from "./engine.js";

/**
 * Whether a process of another user (not the owner, not the group) can reach `file`: every
 * directory above it lets others through (x), and the file itself lets them read it (r).
 */
export function othersCanRead(file: string): boolean {
  const real = fs.realpathSync(file);
  if ((fs.statSync(real).mode & 0o004) === 0) return false;
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/**
 * The CLI entry a process run as another user (e.g. `serve` as nobody) can load. A clone under a
 * directory only root may enter (/root is 0700) leaves `dist/` out of that user's reach: the run
 * then stops on EACCES, not on what the test asks. In that case the install the bundle needs at
 * run time (dist/bin, package.json and db/ that find the package root, the manifest, node_modules)
 * is laid out again in a temporary directory anyone may enter; node_modules is hard-linked where
 * the file system allows (no copy of its hundreds of MB), copied otherwise. `remove` deletes it.
 */
export async function installReadableByOthers(
  root = path.resolve("."),
): Promise<{ cli: string; remove: () => Promise<void> }> {
  const cli = path.join(root, "dist", "bin", "main.js");
  if (othersCanRead(cli)) return { cli, remove: async () => {} };
  const copy = tempDir("codexpi-install-");
  fs.chmodSync(copy, 0o755);
  const present = (name: string) => fs.existsSync(path.join(root, name));
  fs.cpSync(path.join(root, "dist", "bin"), path.join(copy, "dist", "bin"), { recursive: true });
  for (const name of ["package.json", "manifest.yml"].filter(present))
    fs.copyFileSync(path.join(root, name), path.join(copy, name));
  fs.mkdirSync(path.join(copy, "db"));
  const modules = fs.realpathSync(path.join(root, "node_modules"));
  const linked = await execa("cp", ["-al", modules, path.join(copy, "node_modules")], { reject: false });
  if (linked.exitCode !== 0) {
    fs.rmSync(path.join(copy, "node_modules"), { recursive: true, force: true });
    fs.cpSync(modules, path.join(copy, "node_modules"), { recursive: true });
  }
  // What was copied took root's umask; others must read it and enter its directories.
  await execa("chmod", ["-R", "o+rX", path.join(copy, "dist"), path.join(copy, "db")]);
  const copied = path.join(copy, "dist", "bin", "main.js");
  if (!othersCanRead(copied))
    throw new Error(`the temporary directory ${copy} is not readable by other users`);
  return { cli: copied, remove: async () => fs.rmSync(copy, { recursive: true, force: true }) };
}
