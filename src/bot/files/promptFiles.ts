import fs from "node:fs";
import type { WebClient } from "@slack/web-api";
import type { BotContext } from "../context.js";
import { type Attachment, stagingDirOf } from "../../engine/api/model.js";
import { currentRequest } from "../intake/context.js";
import type { SharedFiles } from "../threadContext/index.js";
import { refusalNotice } from "./refusals.js";
import { type IncomingFile, type SlackFile, type StagedFiles, stageFiles } from "./stage.js";

/** The files of a message that prompts, staged, and what to tell its thread once the prompt is in. */
export interface PromptFiles {
  attachments: Attachment[] | undefined;
  /** Names the refused files in the thread (after the prompt was taken). */
  tell(): Promise<void>;
  /** Drops the staged files (the prompt was refused). */
  drop(): void;
  /**
   * Drops the staged files unless the prompt queued before (`queued`: its attachments column) uses
   * them: a twin delivery's are its own (staged under its own key), a replayed delivery's are
   * those its first run queued.
   */
  dropUnused(queued: string | null): void;
}

const NONE: PromptFiles = {
  attachments: undefined,
  tell: async () => {},
  drop: () => {},
  dropUnused: () => {},
};

/** The request's key: the staging directory's, so that a replay finds its files at the same place. */
const keyOf = (channel: string, ts: string): string =>
  currentRequest().requestKey ?? `message:${channel}:${ts}`;

/** A deleted file (or one past a free workspace's history): Slack keeps its place, not its bytes. */
const GONE = new Set(["tombstone", "hidden_by_limit"]);

/**
 * The prompt's own files first, then those of the thread's messages given with it (newest
 * first), less those deleted since: nobody shared them any more.
 */
const incoming = (own: readonly SlackFile[] | undefined, earlier: readonly SharedFiles[]): IncomingFile[] => [
  ...(own ?? []),
  ...earlier.flatMap((m) =>
    (m.files as SlackFile[]).filter((f) => !GONE.has(f.mode ?? "")).map((f) => ({ ...f, from: m.from })),
  ),
];

/**
 * Stages the files shared with a message that prompts (mention, DM, follow-up in a conversation's
 * thread), and those of the thread's messages given with it as context (`earlier`), within one
 * request's limits; the refused ones are named in `threadTs` by `tell()`, in the person's language.
 */
export async function promptFiles(
  ctx: BotContext,
  client: WebClient,
  e: { files?: SlackFile[]; channel: string; ts: string },
  threadTs: string,
  earlier: readonly SharedFiles[] = [],
): Promise<PromptFiles> {
  const files = incoming(e.files, earlier);
  if (!files.length) return NONE;
  const key = keyOf(e.channel, e.ts);
  let staged: StagedFiles;
  try {
    staged = await stageFiles(ctx.config, files, key);
  } catch (err) {
    ctx.logger.warn({ err }, "the files of a message could not be staged");
    staged = {
      attachments: [],
      refused: files.map((f) => ({ name: f.name ?? "?", reason: "download_failed", from: f.from })),
    };
  }
  const locale = ctx.locale;
  const dir = stagingDirOf(ctx.config.dataDir, key);
  const drop = () => fs.rmSync(dir, { recursive: true, force: true });
  return {
    attachments: staged.attachments.length ? staged.attachments : undefined,
    tell: async () => {
      if (!staged.refused.length) return;
      const text = refusalNotice(locale, staged.refused, ctx.config.files, "in");
      await client.chat
        .postMessage({ channel: e.channel, thread_ts: threadTs, text })
        .catch((err: unknown) => ctx.logger.warn({ err }, "could not name the refused files"));
    },
    drop,
    dropUnused: (queued) => {
      if (!queued?.includes(dir)) drop();
    },
  };
}
