import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * File operations of the engine (outside every jail) under a directory an agent can write: its
 * workspace, its Codex state. The agent may have planted a symbolic link, a directory or a FIFO
 * at any name there, so nothing here follows a link or trusts what it finds: every directory
 * between the trusted `root` (which the caller made and no agent can replace) and the file is
 * checked with lstat, files are opened with O_NOFOLLOW, and a file is written by a temporary
 * file created with O_EXCL then renamed over the name: a link there is replaced, never followed.
 */

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** A path under an agent-writable root is not what the engine expects (a link, a file for a directory). */
export class PlantedPathError extends Error {}

/** The parts of `rel` (relative, no `..`): a name that could leave the root is a bug of the caller. */
function partsOf(root: string, rel: string): string[] {
  const parts = path
    .normalize(rel)
    .split(path.sep)
    .filter((p) => p && p !== ".");
  if (path.isAbsolute(rel) || parts.length === 0 || parts.includes(".."))
    throw new Error(`${rel} is not a path inside ${root}`);
  return parts;
}

/**
 * `root/rel` once every directory between them is checked to be a real directory (made, private,
 * when missing and `create`); null when one is missing and not `create`. Throws on a link.
 */
function checkedPath(root: string, rel: string, create: boolean): string | null {
  const parts = partsOf(root, rel);
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    let st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      if (!create) return null;
      // Another worker of the project may make it between our lstat and mkdir: checked again.
      if (!madeHere(() => fs.mkdirSync(dir, { mode: 0o700 }))) st = fs.lstatSync(dir);
    }
    if (st && !st.isDirectory()) {
      throw new PlantedPathError(`${dir} is not a directory (a link or a file): not followed`);
    }
  }
  return path.join(dir, parts[parts.length - 1] as string);
}

/** Runs a create-exclusive `make`; false when the name already exists (made by someone else meanwhile). */
function madeHere(make: () => void): boolean {
  try {
    make();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/** Removes whatever is at `p` (a link itself, never its target; a directory with its content). */
function removeEntry(p: string): void {
  fs.rmSync(p, { recursive: true, force: true });
}

/**
 * Writes `data` to `root/rel` atomically: a temporary file made with O_EXCL|O_NOFOLLOW beside it,
 * then renamed over the name, so a link planted there is replaced and its target never touched.
 */
export function replaceFile(root: string, rel: string, data: string | Buffer, mode = 0o600): void {
  const target = checkedPath(root, rel, true) as string;
  const tmp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`,
  );
  const fd = fs.openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    // rename(2) replaces a file or a link, not a directory: one planted there goes first.
    if (fs.lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) removeEntry(target);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Makes `root/rel` a regular file (created empty when missing) and leaves one as it is; anything
 * else there (a link, a directory, a FIFO) is removed and a new file made with O_EXCL|O_NOFOLLOW.
 */
export function ensureRegularFile(root: string, rel: string, mode = 0o600): void {
  const target = checkedPath(root, rel, true) as string;
  // Concurrent turns of one project (lanes) make the same mount points: a name that appeared
  // between our check and our O_EXCL create is checked again, a bounded number of times.
  for (let tries = 0; ; tries++) {
    const st = fs.lstatSync(target, { throwIfNoEntry: false });
    if (st?.isFile()) return;
    if (st) removeEntry(target);
    if (madeHere(() => fs.closeSync(fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode))))
      return;
    if (tries >= 5) throw new PlantedPathError(`${target} keeps changing: not made`);
  }
}

/** The content of `root/rel` if it is a regular file reached without any link; null otherwise. */
export function readRegularFile(root: string, rel: string): Buffer | null {
  let fd: number;
  try {
    const target = checkedPath(root, rel, false);
    if (!target) return null;
    // O_NONBLOCK: a FIFO planted there must not hang the worker (it is refused just below).
    fd = fs.openSync(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return null; // missing, a link (ELOOP), or a directory on the way that is not one
  }
  try {
    return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd) : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** `root/rel` if it and every directory on the way are real directories (no link); null otherwise. */
function realDirectory(root: string, rel: string): string | null {
  let dir = root;
  for (const part of partsOf(root, rel)) {
    dir = path.join(dir, part);
    if (!fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return null;
  }
  return dir;
}

/** The regular files under `root/rel` (paths relative to `root`), never entering a linked directory. */
export function regularFilesUnder(root: string, rel: string): string[] {
  const top = realDirectory(root, rel);
  if (!top) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      // Dirent types come from the directory itself (lstat-like): a link is neither of these.
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) found.push(path.relative(root, p));
    }
  };
  walk(top);
  return found;
}

/**
 * Makes `dir` a private directory of this process's user: created (0700) when missing, made again
 * when it is a link, not a directory, someone else's, or open to others — then its content is
 * not what codexpi left there. Returns whether it was made again.
 */
export function ensurePrivateDirectory(dir: string): boolean {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  const uid = process.getuid?.() ?? 0;
  const sound = st?.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
  if (sound) return false;
  if (st) removeEntry(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return st !== undefined;
}
