import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readRegularFile } from "../isolation/index.js";
import type { Project } from "../schema.js";
import type { SetupNetwork } from "./setupNetwork.js";

/** Where a repository commits its setup script, relative to its root. */
const COMMITTED_SETUP = path.join(".codexpi", "setup");

/** A project's setup as it will run in one workspace, and the hash that keys its cache. */
export interface SetupCommand {
  /** `admin`: set with `project set --setup`; `committed`: the repository's `.codexpi/setup`. */
  source: "admin" | "committed";
  argv: string[];
  /** sha256 of what decides the result besides the base commit: the command and the setup allowlist. */
  hash: string;
}

/** Why a workspace's committed setup cannot run (it is there, but not a file codexpi may read). */
export class SetupUnreadable extends Error {
  override name = "SetupUnreadable";
}

/**
 * The setup a project runs in `workdir` (a new lane, an orchestration's clone, its checkout), or
 * null when it has none: the admin's command first, else the committed `.codexpi/setup`. The
 * committed script is read without following a link (codexpi reads it outside every jail to hash
 * it); one that is a link, a directory or a FIFO is refused rather than skipped.
 */
export function setupCommandOf(
  project: Pick<Project, "setup_command">,
  workdir: string,
  network: Pick<SetupNetwork, "allowlist">,
): SetupCommand | null {
  const hash = (...parts: (string | Buffer)[]) => {
    const h = createHash("sha256");
    for (const p of [...parts, network.allowlist.join("\n")]) h.update(p).update("\0");
    return h.digest("hex");
  };
  const text = project.setup_command?.trim();
  // The one `sh -c` of codexpi: an admin's own command line, and it runs only inside the jail.
  if (text) return { source: "admin", argv: ["/bin/sh", "-c", text], hash: hash("admin", text) };
  const file = path.join(workdir, COMMITTED_SETUP);
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  const content = st.isFile() ? readRegularFile(workdir, COMMITTED_SETUP) : null;
  if (!content) throw new SetupUnreadable(`${COMMITTED_SETUP} is not a regular file`);
  // An executable script runs as itself (its #! line chooses the interpreter); any other through sh.
  const executable = (st.mode & 0o111) !== 0;
  const argv = executable ? [`./${COMMITTED_SETUP}`] : ["/bin/sh", `./${COMMITTED_SETUP}`];
  return { source: "committed", argv, hash: hash("committed", executable ? "x" : "-", content) };
}
