import { z } from "zod";
import type { FileRefusal } from "./kinds.js";

/** A file staged for a prompt by the front end: its safe name, kind, size and staged path. */
const attachmentSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(["image", "file"]),
  size: z.number().int().nonnegative(),
  /** Absolute path of the staged copy (under the data directory's staging area). */
  staged: z.string().min(1),
  /**
   * The earlier message of the thread it was shared with (its author's display name and time),
   * when it is not the prompt's own: the agent is told where it came from.
   */
  from: z.object({ author: z.string().max(200), at: z.number().int().nonnegative() }).optional(),
});

/** A file staged for a prompt (see attachmentSchema). */
export type Attachment = z.infer<typeof attachmentSchema>;

/** A queue item's `attachments` column as a list (none when absent or unreadable). */
export function parseAttachments(json: string | null | undefined): Attachment[] {
  if (!json) return [];
  try {
    const parsed = z.array(attachmentSchema).safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The column's value for a list of attachments (null for none). */
export const attachmentsColumn = (list: readonly Attachment[] | undefined): string | null =>
  list?.length ? JSON.stringify(list) : null;

/** A file the agent left in its outbox, moved out of the workspace and waiting for its upload. */
export interface HandBackFile {
  name: string;
  size: number;
}

/** A file (shared or handed back) that was not taken, and why. */
export interface FileRefused {
  name: string;
  reason: FileRefusal;
  /** Its size, when known (a file too large says how large). */
  size?: number;
}

/** What a turn handed back: the files to upload and those refused. */
export interface HandBack {
  files: HandBackFile[];
  refused: FileRefused[];
}
