import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Actor } from "../../engine/agents/projects.js";
import type { Command } from "../commandGrammar.js";
import type { BotContext } from "../context.js";

/** A reply to a `/codex` command (ephemeral). */
export type Reply = { text: string; blocks?: unknown[] };

/** `/codex run`, `run resume`, `run cancel`: answered through the response URL. */
export async function runCommand(_ctx: BotContext, _cmd: Extract<Command, { kind: "run" | "run.resume" | "run.cancel" }>, _actor: Actor, _channelId: string): Promise<Reply> {
  throw new Error("not implemented yet");
}

/** `/codex run start` and `run resume --revise`: open the plan modal at once (trigger_id lasts 3 s). */
export async function openRunModal(_ctx: BotContext, _client: WebClient, _cmd: Extract<Command, { kind: "run.start" | "run.resume" }>, _triggerId: string, _channelId: string, _actor: Actor): Promise<void> {
  throw new Error("not implemented yet");
}

/** Run buttons (`run.resume`, `run.revise`) and the plan modal submissions. */
export function registerRunActions(_app: App, _ctx: BotContext): void {}
