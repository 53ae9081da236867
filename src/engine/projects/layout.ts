import fs from "node:fs";
import path from "node:path";
import type { Database } from "../database.js";
import { EngineError } from "../errors.js";
import { packageRoot } from "../system/index.js";

// Where things may live on the host. An agent may write anywhere in its project's directory, so a
// project must hold neither codexpi's data (the database, other agents' workspaces) nor the
// running install (the code every new worker loads): otherwise an agent could change who owns
// what, or what codexpi runs next. The rules are pure functions over real paths (symlinks
// resolved by `realPath`), so that a link cannot hide one directory inside another.

/** The directories no project may contain: codexpi's data and the install it runs from. */
export interface InstallRoots {
  dataDir: string;
  installDir: string;
}

/** The running install's roots: its data directory and the package it runs from. */
export const installRoots = (config: { dataDir: string }): InstallRoots => ({
  dataDir: config.dataDir,
  installDir: packageRoot(),
});

/** One way a layout is unsafe; the paths are real paths. */
export type LayoutProblem =
  | { kind: "data_in_project"; project: string; projectPath: string; dataDir: string }
  | { kind: "install_in_project"; project: string; projectPath: string; installDir: string }
  | ProjectOverlap;

/**
 * Two projects whose directories overlap (DESIGN "Projects never overlap"): `project` is inside
 * `other`, or both are the same directory. An agent of the outer one could read the inner one's
 * files and write its `.git` (Codex's sandbox protects only the `.git` at the top of its root).
 */
export interface ProjectOverlap {
  kind: "project_overlap";
  project: string;
  projectPath: string;
  other: string;
  otherPath: string;
  same: boolean;
}

/** Whether `inner` is `outer` or below it (both real, absolute paths), segment by segment. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Whether two directories (real paths) overlap: one inside the other, or the same. */
const overlaps = (a: string, b: string): boolean => isWithin(a, b) || isWithin(b, a);

/** How `project` overlaps `other` (real paths), the inner one first; null when apart. */
function overlapOf(
  project: { name: string; path: string },
  other: { name: string; path: string },
): ProjectOverlap | null {
  if (!overlaps(project.path, other.path)) return null;
  const [inner, outer] = isWithin(project.path, other.path) ? [project, other] : [other, project];
  return {
    kind: "project_overlap",
    project: inner.name,
    projectPath: inner.path,
    other: outer.name,
    otherPath: outer.path,
    same: inner.path === outer.path,
  };
}

/** Every pair of overlapping projects (real paths), each pair once. */
export function projectOverlaps(projects: Array<{ name: string; path: string }>): ProjectOverlap[] {
  return projects.flatMap((p, i) =>
    projects.slice(i + 1).flatMap((q) => {
      const found = overlapOf(p, q);
      return found ? [found] : [];
    }),
  );
}

/** What is wrong with a project at `projectPath` (real) given the install's roots (real). */
export function projectProblems(project: string, projectPath: string, roots: InstallRoots): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  if (isWithin(roots.dataDir, projectPath))
    problems.push({ kind: "data_in_project", project, projectPath, dataDir: roots.dataDir });
  if (isWithin(roots.installDir, projectPath))
    problems.push({ kind: "install_in_project", project, projectPath, installDir: roots.installDir });
  return problems;
}

/** Every problem of a set of registered projects (real paths). */
export function layoutProblems(
  projects: Array<{ name: string; path: string }>,
  roots: InstallRoots,
): LayoutProblem[] {
  return [...projects.flatMap((p) => projectProblems(p.name, p.path, roots)), ...projectOverlaps(projects)];
}

/**
 * The real path of `p`, symlinks resolved; for a path that does not exist yet (a data directory
 * made at first start), its nearest existing ancestor's real path with the rest appended.
 */
export function realPath(p: string): string {
  const abs = path.resolve(p);
  try {
    return fs.realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realPath(parent), path.basename(abs));
  }
}

/** The install's roots as real paths. */
export const realRoots = (roots: InstallRoots): InstallRoots => ({
  dataDir: realPath(roots.dataDir),
  installDir: realPath(roots.installDir),
});

/**
 * The problems of every registered project (specialists' workspaces, under the data dir,
 * included), overlaps between projects too.
 */
export async function installLayoutProblems(db: Database, roots: InstallRoots): Promise<LayoutProblem[]> {
  const projects = await db.selectFrom("projects").select(["name", "path"]).execute();
  return layoutProblems(
    projects.map((p) => ({ name: p.name, path: realPath(p.path) })),
    realRoots(roots),
  );
}

/**
 * Refuses a project directory (`dir` as given, `real` its real path) that is inside, contains or
 * is another registered project's (`except`: the project being moved), naming that project. Call
 * it inside the write transaction that inserts or moves the project, so that a project added
 * meanwhile by another process is seen.
 */
export async function assertNoOverlap(
  trx: Database,
  dir: string,
  real: string,
  except?: string,
): Promise<void> {
  let q = trx.selectFrom("projects").select(["id", "name", "path"]);
  if (except) q = q.where("id", "<>", except);
  for (const other of await q.orderBy("name").execute()) {
    const otherPath = realPath(other.path);
    if (overlaps(real, otherPath))
      throw new EngineError("invalid", "project_overlaps", { path: dir, name: other.name, other: otherPath });
  }
}
