import type { egress as fr } from "../fr/egress.js";
import type { Message } from "../message.js";

/** English messages of agents' network: connections the egress proxy refused (issue 31). */
export const egress = {
  "egress.refused_head":
    ":no_entry: During this turn the agent tried to reach hosts project {project} does not allow:",
  "egress.refused_line": "• {host} — {why}. An admin can allow it: {command} (or {cli})",
  "egress.reason.not_listed": "not in the project's network list",
  "egress.reason.private": "a local or private address, which an admin must list explicitly",
} satisfies Record<keyof typeof fr, Message>;
