import type { Logger } from "pino";
import type { Kernel } from "../kernel.js";
import type { QueueItem } from "../schema.js";
import {
  collectOutbox,
  deliverToInbox,
  dropStaged,
  handBackDirOf,
  keepOutOfGit,
  parseAttachments,
  dropShippedStaged,
  receiveStaged,
  shipHandBack,
  stagedHere,
  type HandBack,
} from "../files/index.js";
import type { CodexLaunch } from "./launch.js";

// A turn's files (issue 19): those shared with its prompt go into the workspace's inbox before it
// (the launch carries the prompt's note and the images), those its agent left in the outbox come
// out after it (the outcome carries them to the bot). A file that cannot be moved is logged: the
// turn runs, and its answer goes out, without it.

/**
 * Puts the item's staged files in the workspace (fetched from the database first when they were
 * staged on another machine: a project placed on a worker host); the launch then tells Codex.
 */
export async function withInbox(
  engine: Pick<Kernel, "config" | "db">,
  log: Logger,
  item: Pick<QueueItem, "attachments">,
  launch: CodexLaunch,
): Promise<CodexLaunch> {
  try {
    // Every conversation turn: the agent's own `git add -A` leaves `.codexpi/` out as well.
    if (launch.purpose === "conversation") keepOutOfGit(launch.workdir);
    const shared = parseAttachments(item.attachments);
    if (!shared.length) return launch;
    const attachments = await receiveStaged(engine.db, engine.config.dataDir, shared);
    const files = deliverToInbox(engine.config.dataDir, launch.workdir, attachments, engine.config.locale);
    return { ...launch, files };
  } catch (err) {
    log.warn({ err }, "the files shared with the prompt could not be put in the workspace");
    return launch;
  }
}

/**
 * After the turn: the agent's outbox, moved out of the workspace (conversations only: their
 * agents are told of it, and their thread is where the files go), and the staged copies dropped.
 * On a worker host (`placed`) the handed-back files go into the database, for the bot to take.
 */
export async function afterTurnFiles(
  engine: Pick<Kernel, "config" | "db" | "clock">,
  log: Logger,
  item: Pick<QueueItem, "id" | "attachments">,
  launch: CodexLaunch,
  placed: boolean,
): Promise<HandBack | undefined> {
  try {
    const attachments = parseAttachments(item.attachments);
    dropStaged(
      engine.config.dataDir,
      attachments.map((a) => stagedHere(engine.config.dataDir, a)),
    );
    await dropShippedStaged(engine.db, attachments);
  } catch (err) {
    log.warn({ err }, "the staged files of the prompt could not be removed");
  }
  if (launch.purpose !== "conversation") return undefined;
  try {
    const handBack = collectOutbox(
      launch.workdir,
      handBackDirOf(engine.config.dataDir, item.id),
      engine.config.files,
    );
    const sent = placed ? await shipToBot(engine, log, item.id, handBack) : handBack;
    return sent.files.length || sent.refused.length ? sent : undefined;
  } catch (err) {
    log.warn({ err }, "the agent's outbox could not be read");
    return undefined;
  }
}

/**
 * On a worker host: the handed-back files go into the database for the bot. Ones that cannot are
 * named in the thread as not sent (the bot could not read them here), never silently dropped.
 */
async function shipToBot(
  engine: Pick<Kernel, "config" | "db" | "clock">,
  log: Logger,
  queueId: string,
  handBack: HandBack,
): Promise<HandBack> {
  if (!handBack.files.length) return handBack;
  try {
    const names = handBack.files.map((f) => f.name);
    await shipHandBack(engine.db, engine.clock, engine.config.dataDir, queueId, names);
    return handBack;
  } catch (err) {
    log.warn({ err }, "the handed-back files could not be put in the database for the bot");
    const failed = handBack.files.map((f) => ({
      name: f.name,
      size: f.size,
      reason: "transfer_failed" as const,
    }));
    return { files: [], refused: [...handBack.refused, ...failed] };
  }
}
