import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Actor } from "../../engine/agents/projects.js";
import type { Command } from "../commandGrammar.js";
import type { BotContext } from "../context.js";
import type { Reply } from "./runs.js";

/** `/codex orchestrations`: answered through the response URL. */
export async function orchestrationCommand(_ctx: BotContext, _cmd: Extract<Command, { kind: "orchestrations" }>, _actor: Actor, _channelId: string): Promise<Reply> {
  throw new Error("not implemented yet");
}

/** `/codex orchestrate <project>`: open the creation modal at once (trigger_id lasts 3 s). */
export async function openOrchestrationModal(_ctx: BotContext, _client: WebClient, _cmd: Extract<Command, { kind: "orchestrate" }>, _triggerId: string, _channelId: string, _actor: Actor): Promise<void> {
  throw new Error("not implemented yet");
}

/** Orchestration buttons (`orch.*`) and modal submissions. */
export function registerOrchestrationActions(_app: App, _ctx: BotContext): void {}
