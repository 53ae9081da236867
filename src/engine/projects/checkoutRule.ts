import type { WorkspaceMode } from "../schema.js";
import { SPECIALIST_GROUP } from "./projectRights.js";

// Issue 18: in `direct` mode a project's conversations share its one checkout, so the dispatcher
// lets one agent at a time in (dispatch/dispatcher.ts, `Slots`), whatever the runtime policy says.

/** What decides whether a conversation's agent works in its project's checkout. */
export interface CheckoutFacts {
  workspace_mode: WorkspaceMode;
  role: string;
  execution_group: string | null;
  /** The conversation is an orchestration's: it works in the orchestration's own clone. */
  inOrchestration: boolean;
}

/**
 * Whether a conversation's agent takes its direct project's checkout while it runs (the rule of
 * `agentWorkdir`, orchestrations/workdir.ts, which says where it works): an orchestration's
 * conversation works in its clone and a self-repair in its clone of codexpi's source; a
 * specialist's workspace is codexpi's own directory for it, no person's checkout. Any other
 * conversation of a direct project works in the checkout: at most one of them at a time.
 */
export function holdsCheckout(facts: CheckoutFacts): boolean {
  if (facts.workspace_mode !== "direct") return false;
  if (facts.inOrchestration || facts.role === "self") return false;
  return facts.execution_group !== SPECIALIST_GROUP;
}
