import { createHash } from "node:crypto";
import path from "node:path";

/** Where, in a workspace, the files shared with a prompt are put for the agent. */
export const INBOX = ".codexpi/inbox";
/** Where, in a workspace, the agent leaves the files it hands back to the thread. */
export const OUTBOX = ".codexpi/outbox";

/** The data directory's staging area for files downloaded from Slack. */
export const stagingRoot = (dataDir: string): string => path.join(dataDir, "files", "in");

/**
 * Where the files of one request are staged until its turn: keyed by the request (its intake key),
 * so that a request replayed after a crash downloads into the same place.
 */
export const stagingDirOf = (dataDir: string, requestKey: string): string =>
  path.join(stagingRoot(dataDir), createHash("sha256").update(requestKey).digest("hex").slice(0, 32));

/** Where the files a turn handed back wait for their upload (its outbox event names them). */
export const handBackDirOf = (dataDir: string, queueId: string): string =>
  path.join(dataDir, "files", "out", queueId.replace(/[^A-Za-z0-9_-]/g, "_"));
