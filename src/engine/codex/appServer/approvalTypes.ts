/**
 * The contract between the app-server runner (which receives Codex's approval requests) and the
 * engine's approvals (which make them durable and wait for a person's answer). Neither side knows
 * the other's internals: the runner hands over an ApprovalRequest and awaits a decision.
 */

/** Codex's answers to an approval request (`decline` works though Codex does not list it). */
export type ApprovalDecision = "accept" | "acceptForSession" | "decline" | "cancel";

/** One approval request of a running turn, as the runner saw it (never the JSON-RPC id). */
export interface ApprovalRequest {
  kind: "command" | "file_change";
  threadId: string;
  turnId: string;
  itemId: string;
  /** Codex's own approval id when it sends one; else the item id identifies the request. */
  approvalId: string | null;
  /** The command as Codex will run it (command requests). */
  command: string | null;
  cwd: string | null;
  reason: string | null;
  /** Unified diff of a file change, taken from the item's earlier `item/started` (file changes). */
  diff: string | null;
  /** Paths a file change touches. */
  files: string[];
}

/** Answers one request; the signal aborts when the turn stops (the promise may then settle as `cancel`). */
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;
