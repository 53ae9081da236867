import fs from "node:fs";
import path from "node:path";
import type { Config } from "../../config.js";
import {
  type Attachment,
  type FileRefused,
  fileKindOf,
  safeFileName,
  stagingDirOf,
} from "../../engine/api/model.js";
import { downloadSlackFile, tokenMayGoTo } from "./download.js";

// Files in (issue 19, item 2), the bot's half: the files of the message that prompts are checked
// against the limits and kinds (docs/files.md), then downloaded with the bot token into the data
// directory's staging area, keyed by the request (a replayed request stages them again, at the same
// names). The engine records them with the queued prompt; the worker puts them in the workspace.

/** A file object of a Slack message (the fields codexpi reads). */
export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
  mode?: string;
  url_private_download?: string;
  url_private?: string;
}

/** Where a file was shared, when not with the prompt itself: an earlier message of the thread. */
export type FileSource = NonNullable<Attachment["from"]>;

/** A file to stage: the prompt's own, or one of an earlier message of its thread (`from`). */
export type IncomingFile = SlackFile & { from?: FileSource };

/** What became of a message's files: those staged for the prompt, and those refused with why. */
export interface StagedFiles {
  attachments: Attachment[];
  refused: Array<FileRefused & { detail?: string; from?: FileSource }>;
}

/**
 * Checks and downloads the files of one request into its staging directory, in order (the
 * prompt's own first): the per-message limits apply to them all together.
 */
export async function stageFiles(
  config: Pick<Config, "dataDir" | "files" | "slack">,
  files: readonly IncomingFile[],
  requestKey: string,
): Promise<StagedFiles> {
  const out: StagedFiles = { attachments: [], refused: [] };
  if (!files.length) return out;
  const dir = stagingDirOf(config.dataDir, requestKey);
  fs.rmSync(dir, { recursive: true, force: true }); // a replay starts again, at the same names
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const limits = config.files;
  let total = 0;
  for (const file of files) {
    const name = safeFileName(file.name ?? file.title ?? file.id ?? "file");
    const from = file.from ? { from: file.from } : {};
    const refuse = (reason: FileRefused["reason"], extra: { size?: number; detail?: string } = {}) =>
      void out.refused.push({ name, reason, ...extra, ...from });
    const kind = fileKindOf(name, file.mimetype);
    const declared = file.size ?? 0;
    if (out.attachments.length >= limits.maxCount) refuse("too_many");
    else if ("refused" in kind) refuse(kind.refused);
    else if (declared > limits.maxFileBytes) refuse("too_large", { size: declared });
    else if (total + declared > limits.maxMessageBytes) refuse("message_too_large", { size: declared });
    else {
      const taken = await download(
        config,
        file,
        dir,
        name,
        Math.min(limits.maxFileBytes, limits.maxMessageBytes - total),
      );
      if ("reason" in taken) refuse(taken.reason, taken);
      else {
        total += taken.size;
        out.attachments.push({ name, kind: kind.kind, size: taken.size, staged: taken.staged, ...from });
      }
    }
  }
  if (!out.attachments.length) fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

async function download(
  config: Pick<Config, "slack">,
  file: SlackFile,
  dir: string,
  name: string,
  maxBytes: number,
): Promise<{ staged: string; size: number } | { reason: FileRefused["reason"]; detail?: string }> {
  const url = file.url_private_download ?? file.url_private;
  const token = config.slack.botToken;
  if (!url || !token || !tokenMayGoTo(url, config.slack.apiUrl))
    return {
      reason: "download_failed",
      detail: file.mode === "external" ? "external file" : "no download link",
    };
  let staged = path.join(dir, name);
  for (let n = 2; fs.existsSync(staged); n++) staged = path.join(dir, `${n}-${name}`);
  const got = await downloadSlackFile(url, token, staged, maxBytes);
  if (got.ok) return { staged, size: got.bytes };
  return got.tooLarge ? { reason: "too_large" } : { reason: "download_failed", detail: got.detail };
}
