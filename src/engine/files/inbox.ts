import fs from "node:fs";
import path from "node:path";
import { t, type Locale } from "../../i18n/index.js";
import type { Attachment } from "./attachments.js";
import { INBOX, stagingRoot } from "./paths.js";
import { readRegular, realDirIn, writeNew } from "./safeFs.js";
import { formatBytes } from "./size.js";
import { oneLine, utc } from "../threadContext/index.js";

// Files in (issue 19, item 2), the worker's half: the bot staged the files of a request under the
// data directory (it has the Slack token; the workspace may not exist yet); before the turn the
// worker copies them into the workspace's `.codexpi/inbox/` (made now: a lane is made at its first
// turn), tells the agent where they are, and gives the images to Codex as images. The staged copy
// stays until the turn is over, so that a worker that dies half-way delivers them again.

/** What the turn gets of its files: the prompt's note, and the images' paths for Codex. */
export interface InboxDelivery {
  note: string | null;
  images: string[];
}

/**
 * Copies the staged files into `workdir/.codexpi/inbox/` (never through a link an agent planted;
 * a name taken gets a number) and keeps `.codexpi/` out of git. A staged file outside the staging
 * area, gone, or unreadable is skipped.
 */
export function deliverToInbox(
  dataDir: string,
  workdir: string,
  attachments: readonly Attachment[],
  locale: Locale,
): InboxDelivery {
  if (!attachments.length) return { note: null, images: [] };
  keepOutOfGit(workdir);
  const inbox = realDirIn(workdir, INBOX, true) as string;
  const root = `${stagingRoot(dataDir)}${path.sep}`;
  const lines: string[] = [];
  const images: string[] = [];
  for (const a of attachments) {
    if (!path.resolve(a.staged).startsWith(root)) continue;
    const bytes = readRegular(a.staged, Number.MAX_SAFE_INTEGER);
    if (!Buffer.isBuffer(bytes)) continue;
    const name = writeNew(inbox, a.name, bytes);
    const rel = `${INBOX}/${name}`;
    const size = formatBytes(bytes.length);
    if (a.kind === "image") images.push(path.join(inbox, name));
    const line = t(locale, a.kind === "image" ? "files.inbox_image" : "files.inbox_line", {
      path: rel,
      size,
    });
    lines.push(a.from ? `${line}${fromSuffix(locale, a.from)}` : line);
  }
  return lines.length
    ? { note: t(locale, "files.inbox_note", { list: lines.join("\n") }), images }
    : { note: null, images: [] };
}

/** Where a file shared earlier in the thread came from: its message's author (one line) and time. */
const fromSuffix = (locale: Locale, from: NonNullable<Attachment["from"]>): string =>
  t(locale, "files.inbox_from", { author: oneLine(from.author), at: utc(from.at) });

/** Removes the staged copies of a request's files once its turn is over. */
export function dropStaged(dataDir: string, attachments: readonly Attachment[]): void {
  const root = `${stagingRoot(dataDir)}${path.sep}`;
  const dirs = new Set<string>();
  for (const a of attachments) {
    const staged = path.resolve(a.staged);
    if (!staged.startsWith(root)) continue;
    fs.rmSync(staged, { force: true });
    dirs.add(path.dirname(staged));
  }
  for (const dir of dirs) {
    if (dir.startsWith(root) && fs.existsSync(dir) && fs.readdirSync(dir).length === 0)
      fs.rmSync(dir, { recursive: true, force: true });
  }
}

const EXCLUDE_LINE = "/.codexpi/";

/**
 * Adds `/.codexpi/` to the workspace's `.git/info/exclude` (a repository's own, never committed
 * ignore list): the agent's own `git add -A` leaves the inbox and the outbox out too. Nothing is
 * written through a link, nor in a `.git` that is a file (a worktree's pointer).
 */
export function keepOutOfGit(workdir: string): void {
  const git = fs.lstatSync(path.join(workdir, ".git"), { throwIfNoEntry: false });
  if (!git?.isDirectory()) return;
  let info: string | null;
  try {
    info = realDirIn(workdir, ".git/info", true);
  } catch {
    return;
  }
  if (!info) return;
  const exclude = path.join(info, "exclude");
  const st = fs.lstatSync(exclude, { throwIfNoEntry: false });
  if (st && !st.isFile()) return;
  const current = st ? readRegular(exclude, 1024 * 1024) : Buffer.alloc(0);
  if (!Buffer.isBuffer(current)) return;
  const text = current.toString("utf8");
  if (text.split("\n").includes(EXCLUDE_LINE)) return;
  const fd = fs.openSync(
    exclude,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW,
    0o644,
  );
  try {
    fs.writeSync(fd, `${text && !text.endsWith("\n") ? "\n" : ""}${EXCLUDE_LINE}\n`);
  } finally {
    fs.closeSync(fd);
  }
}
