import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { readClone } from "../workspaces/index.js";
import type { GitJailMode } from "../isolation/index.js";

const run = promisify(execFile);

// The setup cache (issue 31, item 4): what a setup left in a fresh clone that git does not track
// (node_modules, .venv, build outputs), kept under the data directory per (project, base commit,
// setup hash), so that the next lane made at the same base with the same setup starts from it
// without running the setup again. Measured on a 20,000-file tree on this 2-core ext4 machine
// (docs/benchmarks.md): a copy (`cp -a`; `--reflink=auto` falls back to it on ext4) takes 2–20 s,
// hard links (`cp -al`) 0.5–0.9 s; an overlay needs bubblewrap ≥ 0.9 (Debian has 0.8) and the
// agent's jail. So entries are brought into a lane as hard links — safe only because no jail can
// write a cached file: when codexpi runs as root, every cached file is owned by an id no jail maps
// (65534) and loses its write bits, so an agent, root in its user namespace, can neither write
// nor chmod it (it may delete it or put another file in its place: its lane's directories are its
// own). Without root that is impossible, and entries are copied instead (`--reflink=auto`: a
// copy-on-write clone on btrfs or XFS). An entry is built in a temporary directory and renamed
// into place; it is never mounted into any jail; the N most recently used of a project stay.

/** Owner of cached files: mapped in no jail (a jail maps only the worker's own id). */
const CACHE_UID = 65534;
/** How many entries a project keeps (the most recently used). */
const KEEP = 3;

/** How entries reach lanes: `link` (root: protected hard links) or `copy`. */
export type CacheMode = "link" | "copy";

/** The mode this process can use. */
export const cacheMode = (): CacheMode => (process.getuid?.() === 0 ? "link" : "copy");

const projectCache = (dataDir: string, projectId: string) => path.join(dataDir, "setup-cache", projectId);

/** Where the entry for (project, base, setup) lives. */
export const cacheEntry = (dataDir: string, projectId: string, base: string, hash: string): string =>
  path.join(projectCache(dataDir, projectId), `${base}-${hash.slice(0, 24)}`);

/** What an entry records besides its files. */
export interface CacheMeta {
  base: string;
  hash: string;
  /** The paths it holds, relative to the workspace root. */
  paths: string[];
  createdAt: number;
}

/** The entry's record, or null when there is no complete entry. */
export function readCacheMeta(entry: string): CacheMeta | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(entry, "meta.json"), "utf8")) as CacheMeta;
  } catch {
    return null;
  }
}

/**
 * The paths a setup left in a sealed clone that git does not track (untracked or ignored), whole
 * directories as one path; `.codexpi/` (codexpi's own files) is never one. The seal is checked:
 * a setup that changed the clone's git configuration leaves a clone nothing more is run in.
 */
export async function untrackedPaths(jail: GitJailMode, clone: string): Promise<string[]> {
  // GIT_OPTIONAL_LOCKS=0 (repoGit's): status reads the index, never rewrites it.
  const out = await readClone(jail, clone, [
    "status",
    "--porcelain=v1",
    "-z",
    "--ignored=matching",
    "--untracked-files=normal",
  ]);
  return out
    .split("\0")
    .filter((e) => e.startsWith("?? ") || e.startsWith("!! "))
    .map((e) => e.slice(3).replace(/\/$/, ""))
    .filter((p) => p && p !== ".codexpi" && !p.startsWith(".codexpi/") && p !== ".git");
}

/**
 * Keeps `paths` of `workspace` as the entry for (base, hash): linked (or copied) into a temporary
 * directory, protected, then renamed into place. An entry already there (another lane's) wins.
 */
export async function storeCache(
  dataDir: string,
  projectId: string,
  key: { base: string; hash: string },
  workspace: string,
  paths: string[],
  mode: CacheMode = cacheMode(),
): Promise<string> {
  const dir = projectCache(dataDir, projectId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.tmp-${randomBytes(6).toString("hex")}`);
  const tree = path.join(tmp, "tree");
  fs.mkdirSync(tree, { recursive: true });
  try {
    if (paths.length)
      await run(
        "cp",
        [mode === "link" ? "-al" : "-a", ...reflink(mode), "--parents", "-t", tree, "--", ...paths],
        {
          cwd: workspace,
          maxBuffer: 1024 * 1024,
        },
      );
    if (mode === "link") protectFiles(tree);
    const meta: CacheMeta = { ...key, paths, createdAt: Date.now() };
    fs.writeFileSync(path.join(tmp, "meta.json"), JSON.stringify(meta));
    const entry = cacheEntry(dataDir, projectId, key.base, key.hash);
    try {
      fs.renameSync(tmp, entry);
    } catch {
      // Another lane stored the same entry first: its files are as good as ours.
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return entry;
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

const reflink = (mode: CacheMode) => (mode === "copy" ? ["--reflink=auto"] : []);

/**
 * Makes every file under `dir` (not its directories) owned by CACHE_UID and read-only: a file
 * hard-linked into a lane is then one its agent cannot change in place. Links are re-owned, never
 * followed.
 */
export function protectFiles(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) protectFiles(p);
    else if (entry.isSymbolicLink()) fs.lchownSync(p, CACHE_UID, CACHE_UID);
    else {
      fs.lchownSync(p, CACHE_UID, CACHE_UID);
      // chown already cleared set-id bits; write bits go so that no one but root writes it.
      fs.chmodSync(p, fs.lstatSync(p).mode & 0o7555);
    }
  }
}

/**
 * Brings an entry's files into a fresh workspace (hard links or copies), and marks the entry used
 * (the most recently used are kept). The workspace's own directories stay its own.
 */
export async function restoreCache(
  entry: string,
  workspace: string,
  mode: CacheMode = cacheMode(),
): Promise<void> {
  const tree = path.join(entry, "tree");
  // `--remove-destination`: a copy never writes through an existing file (it could be a link
  // into the entry); `tree/.` merges into the workspace's existing directories.
  await run(
    "cp",
    [
      mode === "link" ? "-al" : "-a",
      ...reflink(mode),
      "--no-preserve=ownership",
      "--remove-destination",
      "--",
      `${tree}/.`,
      `${workspace}/`,
    ],
    { maxBuffer: 1024 * 1024 },
  );
  const now = new Date();
  fs.utimesSync(path.join(entry, "meta.json"), now, now);
}

/** Removes a project's entries beyond the KEEP most recently used, and temporary ones left behind. */
export function pruneCache(dataDir: string, projectId: string, keep = KEEP, now = Date.now()): void {
  const dir = projectCache(dataDir, projectId);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const used = (name: string) =>
    fs.statSync(path.join(dir, name, "meta.json"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const entries = names.filter((n) => !n.startsWith(".")).sort((a, b) => used(b) - used(a));
  for (const name of entries.slice(keep)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  // A temporary directory an hour old belongs to a store that died half-way.
  for (const name of names.filter((n) => n.startsWith(".tmp-"))) {
    const p = path.join(dir, name);
    if (now - (fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? now) > 3600_000)
      fs.rmSync(p, { recursive: true, force: true });
  }
}
