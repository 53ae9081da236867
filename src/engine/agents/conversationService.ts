import type { Engine } from "../engine.js";
import { EngineError } from "../errors.js";
import type { Conversation, Project } from "../schema.js";
import { enqueue, startConversation, type SlackThread } from "./conversations.js";
import { canSee, getProject, projectForActor, type Actor } from "./projects.js";
import { stopConversation, type StopResult } from "./stop.js";

/** A conversation with the project it belongs to. */
export interface ConversationWithProject {
  conversation: Conversation;
  project: Project;
}

/**
 * May `actor` drive this conversation (follow up, stop)? Its user, the project's owner and admins
 * may. Anyone who cannot even see the project gets "not found", as if it did not exist.
 */
export function assertCanDrive(actor: Actor, c: ConversationWithProject): void {
  if (!canSee(actor, c.project)) throw new EngineError("not_found", "conversation_not_found", { name: c.conversation.id });
  if (actor.isAdmin || c.conversation.user_id === actor.userId || c.project.owner_id === actor.userId) return;
  throw new EngineError("forbidden", "not_allowed_to_drive", { user: c.conversation.user_id ?? "?" });
}

/** Starts a conversation in a project the actor can see, and dispatches it at once. */
export async function ask(engine: Engine, actor: Actor, projectName: string, prompt: string, slack?: SlackThread) {
  const project = await projectForActor(engine.db, actor, projectName);
  if (!prompt.trim()) throw new EngineError("invalid", "prompt_empty");
  const started = await startConversation(engine.db, engine.clock, project, prompt, actor.userId, { slack });
  const dispatched = await engine.dispatch();
  return { ...started, project, paused: dispatched.paused };
}

/** The conversation a Slack thread belongs to, if any. */
export async function conversationOfThread(engine: Engine, channelId: string, threadTs: string): Promise<ConversationWithProject | null> {
  const conversation = await engine.db
    .selectFrom("conversations")
    .selectAll()
    .where("slack_channel_id", "=", channelId)
    .where("slack_thread_ts", "=", threadTs)
    .executeTakeFirst();
  if (!conversation) return null;
  return { conversation, project: await getProject(engine.db, conversation.project_id) };
}

/** Loads a conversation with its project, or not_found. */
export async function loadConversation(engine: Engine, conversationId: string): Promise<ConversationWithProject> {
  const conversation = await engine.db.selectFrom("conversations").selectAll().where("id", "=", conversationId).executeTakeFirst();
  if (!conversation) throw new EngineError("not_found", "conversation_not_found", { name: conversationId });
  return { conversation, project: await getProject(engine.db, conversation.project_id) };
}

/** Queues a follow-up in an existing conversation (same Codex thread) and dispatches. */
export async function followUp(engine: Engine, actor: Actor, c: ConversationWithProject, prompt: string) {
  assertCanDrive(actor, c);
  const item = await enqueue(engine.db, engine.clock, c.conversation.id, prompt, { requestedBy: actor.userId });
  const dispatched = await engine.dispatch();
  return { item, paused: dispatched.paused };
}

/** Stops a conversation on behalf of a user allowed to drive it. */
export async function stop(engine: Engine, actor: Actor, conversationId: string): Promise<StopResult> {
  const c = await loadConversation(engine, conversationId);
  assertCanDrive(actor, c);
  return stopConversation(engine, conversationId);
}
