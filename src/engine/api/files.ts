import type { Kernel } from "../kernel.js";
import { pruneFileChunks, receiveHandBack } from "../files/index.js";

/**
 * Files between machines, as the bot takes them: what a turn on a worker host handed back comes
 * through the database into this data directory before the upload (see engine/files/transfer.ts).
 */
export interface FilesApi {
  /** Writes a turn's handed-back files that crossed through the database into this data directory; how many came. */
  receiveHandBack(queueId: string): Promise<number>;
  /** Forgets files stored in the database before `before` (epoch ms) that nobody took. */
  pruneTransfers(before: number): Promise<number>;
}

export function filesApi(kernel: Kernel): FilesApi {
  return {
    receiveHandBack: (queueId) => receiveHandBack(kernel.db, kernel.config.dataDir, queueId),
    pruneTransfers: (before) => pruneFileChunks(kernel.db, before),
  };
}
