import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../kernel.js";
import { newId } from "../ids.js";
import { replaceFile } from "../isolation/index.js";
import { t, type Locale } from "../../i18n/index.js";

// Long texts an agent receives (a specialist's result, a step's report for the master, a failure
// for a self-repair) are never cut silently. Up to INLINE_LIMIT characters they are passed whole;
// beyond, the prompt keeps the head and the tail (a conclusion is usually at the end) around a
// mark naming a file that holds the whole text. The receiving agent runs jailed in its workspace,
// so that file must be inside it: the engine keeps it under the data directory, keyed by the
// receiving conversation, and the worker copies it into the workspace before Codex starts
// (`deliverInbox`), when the workspace is known and exists (a self-repair's clone is made then).

/** Above this many characters a text is cut in the prompt (the whole text goes to the inbox). */
const INLINE_LIMIT = 20_000;
/** What a cut text keeps of its end. */
const TAIL = 6_000;

/** Where the agent finds the whole texts, relative to its working directory. */
const INBOX_DIR = path.join(".codexpi", "inbox");

/** What passing a text needs: the catalog's language and where the engine keeps inboxes. */
export interface TextCtx {
  locale: Locale;
  dataDir: string;
}

/** The engine's copy of a conversation's inbox (outside any jail). */
export const inboxStore = (dataDir: string, conversationId: string): string =>
  path.join(dataDir, "inbox", conversationId);

/**
 * `text` for a prompt of the conversation `conversationId`: whole when short, else its head and
 * tail around a mark naming `.codexpi/inbox/<id>.md`, where the whole text is saved. The write is
 * synchronous and small (callers build prompts inside a transaction: nothing is awaited there),
 * and it happens before the commit that lets a worker start, so the worker always finds it.
 */
export function passText(ctx: TextCtx, conversationId: string, text: string, limit = INLINE_LIMIT): string {
  if (text.length <= limit) return text;
  const id = newId();
  const dir = inboxStore(ctx.dataDir, conversationId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, `${id}.md`), text, { mode: 0o600 });
  const tail = Math.min(TAIL, Math.floor(limit / 3));
  const head = limit - tail;
  const mark = t(ctx.locale, "text.cut", {
    omitted: text.length - head - tail,
    total: text.length,
    path: path.join(INBOX_DIR, `${id}.md`),
  });
  return `${text.slice(0, head)}\n${mark}\n${text.slice(text.length - tail)}`;
}

/**
 * Copies a conversation's inbox into its workspace (the worker, before Codex starts). The
 * workspace is the agent's to write: `.codexpi` or its inbox planted as a symbolic link would
 * send the worker's writes elsewhere, so links are refused and never followed, and each file is
 * renamed into place (a link, a FIFO or a directory planted at its name is replaced). A
 * `.gitignore` keeps the inbox out of commits (clones are committed with `git add -A`) and of
 * `git status`.
 */
export function deliverInbox(dataDir: string, conversationId: string, workdir: string): number {
  const source = inboxStore(dataDir, conversationId);
  if (!fs.existsSync(source)) return 0;
  const files = fs.readdirSync(source).filter((f) => f.endsWith(".md"));
  if (!files.length) return 0;
  replaceFile(workdir, path.join(".codexpi", ".gitignore"), "*\n", 0o644);
  for (const f of files)
    replaceFile(workdir, path.join(INBOX_DIR, f), fs.readFileSync(path.join(source, f)), 0o644);
  return files.length;
}

/**
 * Housekeeping: forgets the engine's copy of the inboxes of conversations idle for `maxAgeMs`
 * with no work queued or running (their texts were delivered to their workspaces, or never will
 * be). Returns how many inboxes were removed.
 */
export async function pruneInboxes(
  engine: Pick<Kernel, "db" | "clock" | "config">,
  maxAgeMs: number,
): Promise<number> {
  const root = path.join(engine.config.dataDir, "inbox");
  if (!fs.existsSync(root)) return 0;
  let removed = 0;
  for (const name of fs.readdirSync(root)) {
    const conversation = await engine.db
      .selectFrom("conversations")
      .select("updated_at")
      .where("id", "=", name)
      .executeTakeFirst();
    if (conversation && conversation.updated_at >= engine.clock.now() - maxAgeMs) continue;
    const busy = await engine.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", name)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (busy) continue;
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
