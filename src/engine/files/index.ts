// Files in and out of a conversation (issue 19, items 2 and 3): what kinds and names are taken,
// where they are staged and handed back, and the worker's moves in and out of a workspace.
export { FILE_REFUSALS, fileKindOf, isTextName } from "./kinds.js";
export { safeFileName } from "./names.js";
export { handBackDirOf, stagingDirOf } from "./paths.js";
export {
  attachmentsColumn,
  parseAttachments,
  type Attachment,
  type FileRefused,
  type HandBack,
} from "./attachments.js";
export { deliverToInbox, dropStaged, keepOutOfGit } from "./inbox.js";
export { collectOutbox } from "./handBack.js";
export { formatBytes } from "./size.js";
export { pruneStaleFiles } from "./prune.js";
export {
  dropShippedStaged,
  pruneFileChunks,
  receiveHandBack,
  receiveStaged,
  shipHandBack,
  shipStaged,
  stagedHere,
} from "./transfer.js";
