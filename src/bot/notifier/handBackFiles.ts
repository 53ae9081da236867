import fs from "node:fs";
import path from "node:path";
import { type FileRefused, handBackDirOf, isTextName } from "../../engine/api/model.js";
import { containsSecret, redactText } from "../../redaction.js";
import type { Config } from "../../config.js";
import { refusalNotice } from "../files/refusals.js";
import type { EntryOf, Rendered, Renderer } from "./renderer.js";
import { type PostPlace, RendererBase, type RendererDeps } from "./rendererBase.js";

// Files out (issue 19, item 3), the bot's half: a turn's `conversation.files` event names the
// files its agent left in the outbox, which the worker moved into the data directory; each is
// uploaded into the conversation's thread (files.getUploadURLExternal, the upload, then
// files.completeUploadExternal), a text file redacted like every post, other bytes withheld when
// they hold a secret, then removed. An upload is
// recorded under its key, so a retried event does not upload it again; a crash between the upload
// and its record uploads it twice rather than never.

export class HandBackFiles extends RendererBase implements Renderer<"conversation.files"> {
  constructor(
    deps: RendererDeps,
    private readonly settings: { dataDir: string; limits: Config["files"] } | undefined,
  ) {
    super(deps);
  }

  relevant(entries: Array<EntryOf<"conversation.files">>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle(entry: EntryOf<"conversation.files">): Promise<Rendered> {
    const { conversationId, queueId, files, refused } = entry.event;
    const address = await this.addresses.get("conversation", conversationId);
    if (!address || !this.settings) return "ignored";
    const place = {
      outboxId: entry.id,
      conversationId,
      channel: address.channel,
      threadTs: address.threadTs ?? address.statusTs,
    };
    // A turn on a worker host handed its files back through the database: they come here first.
    await this.api.files.receiveHandBack(queueId);
    const dir = handBackDirOf(this.settings.dataDir, queueId);
    const { conversation } = await this.api.conversations.load(conversationId);
    const limits = this.settings.limits;
    await this.inLocaleOf(conversation.user_id, async () => {
      const withheld: FileRefused[] = [];
      for (const f of files) {
        const sent = await this.uploadOne(`handback:${queueId}:${f.name}`, place, path.join(dir, f.name));
        if (sent === "withheld") withheld.push({ name: f.name, reason: "secret", size: f.size });
      }
      const notTaken = [...refused, ...withheld];
      if (notTaken.length)
        await this.poster.postOnce({
          ...place,
          key: `handback-refused:${queueId}`,
          purpose: "notice",
          text: refusalNotice(this.locale, notTaken, limits, "out"),
        });
    });
    fs.rmSync(dir, { recursive: true, force: true });
    return "posted";
  }

  /** The thread says nothing more when a file cannot go: the turn's answer is there already. */
  async reportFailure(): Promise<void> {}

  /**
   * Uploads one handed-back file (`done` when it was already, or is gone); `withheld` when its
   * bytes hold a secret: a text is redacted, but other bytes cannot be without breaking the file.
   */
  private async uploadOne(
    key: string,
    place: PostPlace,
    file: string,
  ): Promise<"uploaded" | "done" | "withheld"> {
    if (await this.poster.postedTs(key)) return "done";
    // Gone: uploaded and removed before a crash (its record is written before the removal).
    if (!fs.existsSync(file)) return "done";
    const filename = path.basename(file);
    const bytes = fs.readFileSync(file);
    const text = isTextName(filename);
    // Kept until the notice naming it is posted (the folder goes at the end): a retried event
    // names it again.
    if (!text && containsSecret(bytes)) return "withheld";
    const destination = place.threadTs
      ? { channel_id: place.channel, thread_ts: place.threadTs }
      : { channel_id: place.channel };
    // Text is redacted before its length is declared to Slack.
    const body = text ? { content: redactText(bytes.toString("utf8")) } : { file: bytes };
    await this.client.filesUploadV2({ ...destination, filename, title: filename, ...body });
    await this.poster.posts.recordFile({ key, ...place });
    fs.rmSync(file, { force: true });
    return "uploaded";
  }
}
