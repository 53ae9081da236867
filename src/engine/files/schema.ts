// Row type of db/migrations/0030_file_transfers. Times are epoch milliseconds.

/** One piece of a file crossing between machines (see transfer.ts). */
export interface FileChunksTable {
  /** `in:<staging folder>/<name>` (a prompt's staged file) or `out:<queue id>` (a turn's hand-back). */
  owner: string;
  name: string;
  seq: number;
  /** Base64. */
  data: string;
  created_at: number;
}

// The engine's schema (src/engine/schema.ts) is shared; this capability adds its table to it.
declare module "../schema.js" {
  interface DB {
    file_chunks: FileChunksTable;
  }
}
