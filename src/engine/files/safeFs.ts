import fs from "node:fs";
import path from "node:path";
import { numberedName } from "./names.js";

// File operations inside a workspace an agent may have written: no engine operation follows a
// link there (DESIGN "Nothing an agent wrote runs outside a jail"). Every component is checked
// with lstat, files are opened with O_NOFOLLOW, and created with O_EXCL.

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY } = fs.constants;

/**
 * `root/rel` as a real directory, made where missing; throws when a component is a link or not a
 * directory (an agent planted it: nothing is written through it).
 */
export function realDirIn(root: string, rel: string, create: boolean): string | null {
  let dir = root;
  for (const part of rel.split("/").filter(Boolean)) {
    dir = path.join(dir, part);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      if (!create) return null;
      fs.mkdirSync(dir, { mode: 0o755 });
      continue;
    }
    if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a link or a file)`);
  }
  return dir;
}

/** Writes `bytes` under a new name in `dir` (`name`, else `name-2`, …); answers the name used. */
export function writeNew(dir: string, name: string, bytes: Buffer): string {
  for (let n = 1; n < 1000; n++) {
    const candidate = numberedName(name, n);
    let fd: number;
    try {
      fd = fs.openSync(path.join(dir, candidate), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    try {
      fs.writeSync(fd, bytes);
    } finally {
      fs.closeSync(fd);
    }
    return candidate;
  }
  throw new Error(`no free name for ${name} in ${dir}`);
}

/**
 * A regular file's bytes, never through a link; null when it is not a regular file, or
 * `too_large` past `maxBytes` (read no further).
 */
export function readRegular(file: string, maxBytes: number): Buffer | null | "too_large" {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > maxBytes) return "too_large";
    const buf = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = fs.readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}
