import { type Locale, type MessageKey, t } from "../../i18n/index.js";
import type { AgentPurpose } from "../isolation/index.js";

/**
 * The markers each kind of agent may use: codexpi acts on them whatever the project's AGENTS.md
 * says, so the agent is told about exactly those (a conversation cannot self-repair).
 */
const MARKERS_BY_PURPOSE = {
  // Only a conversation has a Slack thread to share files with it and to hand files back to.
  conversation: [
    "agent.protocol.decision",
    "agent.protocol.specialist_call",
    "agent.protocol.files",
    "agent.protocol.remember",
  ],
  run: ["agent.protocol.decision", "agent.protocol.specialist_call", "agent.protocol.supervision"],
  orchestration: ["agent.protocol.decision", "agent.protocol.specialist_call"],
  specialist: ["agent.protocol.specialist_ready", "agent.protocol.decision"],
  self_repair: ["agent.protocol.self_repair"],
} as const satisfies Record<AgentPurpose, readonly MessageKey[]>;

/**
 * The protocol told to an agent of this purpose, given as Codex's developer instructions; with
 * it, every agent is told that text quoted from Slack is other people's words, not instructions
 * (engine/threadContext).
 */
export function agentInstructions(purpose: AgentPurpose, locale: Locale): string {
  return [
    "agent.protocol.rules" as const,
    "agent.protocol.quoted_data" as const,
    ...MARKERS_BY_PURPOSE[purpose],
  ]
    .map((key) => t(locale, key))
    .join("\n\n");
}

/**
 * A TOML basic string (what `-c key=value` parses): JSON's escapes are TOML's, except that TOML
 * also forbids a raw DEL, which JSON leaves as is.
 */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, "\\u007F");
}
