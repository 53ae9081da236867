import fs from "node:fs";
import path from "node:path";
import type { FileRefused, HandBack, HandBackFile } from "./attachments.js";
import type { FileRefusal } from "./kinds.js";
import { safeFileName } from "./names.js";
import { OUTBOX } from "./paths.js";
import { readRegular, realDirIn, writeNew } from "./safeFs.js";

// Files out (issue 19, item 3), the worker's half: after the turn, what the agent left in
// `.codexpi/outbox/` is moved out of the workspace into the data directory (under the item), and
// the outcome names it; the outcome's event (`conversation.files`, written with the outcome) makes
// the bot upload it. A crash between the turn's end and the upload loses nothing: the files wait
// in the data directory, the event in the outbox. The agent's outbox is emptied either way.

/** The limits of what one turn hands back. */
export interface HandBackLimits {
  maxOutBytes: number;
  maxOutCount: number;
}

/**
 * Moves the regular files of `workdir/.codexpi/outbox/` (never through a link) into `dest`, within
 * the limits; what is refused is named with why. Everything is removed from the outbox.
 */
export function collectOutbox(workdir: string, dest: string, limits: HandBackLimits): HandBack {
  const out: HandBack = { files: [], refused: [] };
  let outbox: string | null;
  try {
    outbox = realDirIn(workdir, OUTBOX, false);
  } catch {
    return out; // a link where the outbox should be: nothing is read through it
  }
  if (!outbox) return out;
  const entries = fs
    .readdirSync(outbox, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const file = path.join(outbox, entry.name);
    const taken = takeOne(file, entry, dest, limits, out.files.length);
    if ("reason" in taken) out.refused.push(taken);
    else out.files.push(taken);
    fs.rmSync(file, { recursive: true, force: true }); // a link is removed, never followed
  }
  return out;
}

function takeOne(
  file: string,
  entry: fs.Dirent,
  dest: string,
  limits: HandBackLimits,
  taken: number,
): HandBackFile | FileRefused {
  const name = safeFileName(entry.name);
  const refuse = (reason: FileRefusal): FileRefused => ({ name, reason });
  if (!entry.isFile()) return refuse("not_a_file");
  if (taken >= limits.maxOutCount) return refuse("too_many");
  const bytes = readRegular(file, limits.maxOutBytes);
  if (bytes === "too_large") return { ...refuse("too_large"), size: fs.lstatSync(file).size };
  if (!bytes) return refuse("not_a_file");
  fs.mkdirSync(dest, { recursive: true, mode: 0o700 });
  return { name: writeNew(dest, name, bytes), size: bytes.length };
}
