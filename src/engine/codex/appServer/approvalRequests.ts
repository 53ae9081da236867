import type { ApprovalRequest } from "./approvalTypes.js";
import type { FileUpdateChange } from "./protocol/v2/FileUpdateChange.js";
import type { ServerRequests } from "./wire.js";

/** Codex's approval requests codexpi answers (any other server request gets a JSON-RPC error). */
export const COMMAND_APPROVAL = "item/commandExecution/requestApproval" satisfies keyof ServerRequests;
export const FILE_CHANGE_APPROVAL = "item/fileChange/requestApproval" satisfies keyof ServerRequests;

/**
 * The diff of a file change, file by file. Codex's approval request carries none: it is in the
 * change's earlier `item/started`, which the runner keeps by item id. An added file's "diff" is
 * its content, so every file gets a header naming it and what happens to it.
 */
function changesDiff(changes: readonly FileUpdateChange[]): string | null {
  if (!changes.length) return null;
  return changes
    .map((c) => {
      const kind = c.kind.type === "update" && c.kind.move_path ? `move to ${c.kind.move_path}` : c.kind.type;
      const body = c.diff.endsWith("\n") || c.diff === "" ? c.diff : `${c.diff}\n`;
      return `*** ${kind}: ${c.path}\n${body}`;
    })
    .join("");
}

/** The runner's view of one approval request (never the JSON-RPC id: it means nothing after a restart). */
export function approvalRequest(
  method: keyof ServerRequests,
  params: ServerRequests[keyof ServerRequests][0],
  fileChanges: ReadonlyMap<string, readonly FileUpdateChange[]>,
  turnCwd: string,
): ApprovalRequest {
  const ids = { threadId: params.threadId, turnId: params.turnId, itemId: params.itemId };
  if (method === COMMAND_APPROVAL) {
    const p = params as ServerRequests[typeof COMMAND_APPROVAL][0];
    return {
      kind: "command",
      ...ids,
      approvalId: p.approvalId ?? null,
      command: p.command ?? null,
      cwd: p.cwd ?? null,
      reason: p.reason ?? null,
      diff: null,
      files: [],
    };
  }
  const p = params as ServerRequests[typeof FILE_CHANGE_APPROVAL][0];
  const changes = fileChanges.get(p.itemId) ?? [];
  return {
    kind: "file_change",
    ...ids,
    approvalId: null,
    command: null,
    // A patch names its files; it runs where the turn runs.
    cwd: turnCwd,
    reason: p.reason ?? null,
    diff: changesDiff(changes),
    files: changes.map((c) => c.path),
  };
}
