import { runUseCase, runUseCaseDispatched, withEffects, type Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import type { Kysely } from "kysely";
import type { OnCreated } from "../database.js";
import type { Conversation, DB, Project } from "../schema.js";
import { conversationRights } from "../projects/index.js";
import { enqueue, startConversation } from "./conversations.js";
import {
  getProject,
  isSharedSpecialist,
  mayPromptProject,
  projectForActor,
  type Actor,
} from "../projects/index.js";
import { stopUseCase, type StopReport } from "./stop.js";
import { checkRequestOptions, parseRequestOptions, refusalError } from "./requestOptions.js";

/** A conversation with the project it belongs to. */
export interface ConversationWithProject {
  conversation: Conversation;
  project: Project;
}

/**
 * May `actor` drive this conversation (follow up, stop)? Its user, the project's owner and admins
 * may; a shared specialist's conversations only admins (see access.ts). Anyone who cannot even
 * see the conversation gets "not found", as if it did not exist.
 */
async function assertCanDrive(db: Kysely<DB>, actor: Actor, c: ConversationWithProject): Promise<void> {
  const rights = await conversationRights(db, actor, c);
  if (!rights.see) throw new EngineError("not_found", "conversation_not_found", { name: c.conversation.id });
  if (rights.prompt) return;
  if (isSharedSpecialist(c.project)) throw new EngineError("forbidden", "specialist_shared_admins_only");
  // They see it: told who may prompt here and what they may do instead, never "not found".
  throw new EngineError("forbidden", "conversation_reserved", {
    project: c.project.name,
    owner: c.project.owner_id ?? "",
    author: c.conversation.user_id ?? "",
    may_prompt_project: (await mayPromptProject(db, actor, c.project)) ? 1 : 0,
  });
}

/** Where a prompt comes from: the adapter's request key makes a replayed request queue it once. */
export interface RequestOrigin {
  requestKey?: string | null;
  /** The adapter's own rows for a conversation this request starts (where it lives there). */
  onCreated?: OnCreated;
}

/** Starts a conversation in a project the actor may prompt, and dispatches it at once. */
export async function ask(
  engine: Kernel,
  actor: Actor,
  projectName: string,
  prompt: string,
  request: RequestOrigin = {},
) {
  const { value, dispatched } = await runUseCaseDispatched(engine, async () => {
    const project = await projectForActor(engine.db, actor, projectName);
    // The request's options (`model=`, `effort=`, `branch=`) lead its prompt: read and checked
    // before anything is written, so that a refused one queues nothing and posts nothing.
    const parsed = parseRequestOptions(prompt);
    if (!parsed.ok) throw refusalError(parsed.refusal);
    if (!parsed.prompt) throw new EngineError("invalid", "prompt_empty");
    await checkRequestOptions(engine, project, parsed.options);
    const started = await startConversation(engine.db, engine.clock, project, parsed.prompt, actor.userId, {
      requestKey: request.requestKey,
      onCreated: request.onCreated,
      options: parsed.options,
    });
    return withEffects({ ...started, project }, { dispatch: true });
  });
  return { ...value, paused: dispatched?.paused ?? [] };
}

/** Loads a conversation with its project, or not_found. */
export async function loadConversation(
  engine: Kernel,
  conversationId: string,
): Promise<ConversationWithProject> {
  const conversation = await engine.db
    .selectFrom("conversations")
    .selectAll()
    .where("id", "=", conversationId)
    .executeTakeFirst();
  if (!conversation) throw new EngineError("not_found", "conversation_not_found", { name: conversationId });
  return { conversation, project: await getProject(engine.db, conversation.project_id) };
}

/** Queues a follow-up in an existing conversation (same Codex thread) and dispatches. */
export async function followUp(
  engine: Kernel,
  actor: Actor,
  c: ConversationWithProject,
  prompt: string,
  request: RequestOrigin = {},
) {
  const { value: item, dispatched } = await runUseCaseDispatched(engine, async () => {
    await assertCanDrive(engine.db, actor, c);
    const item = await enqueue(engine.db, engine.clock, c.conversation.id, prompt, {
      requestedBy: actor.userId,
      requestKey: request.requestKey,
    });
    return withEffects(item, { dispatch: true });
  });
  return { item, paused: dispatched?.paused ?? [] };
}

/** Stops a conversation on behalf of a user allowed to drive it. */
export async function stop(engine: Kernel, actor: Actor, conversationId: string): Promise<StopReport> {
  return runUseCase(engine, async () => {
    const c = await loadConversation(engine, conversationId);
    await assertCanDrive(engine.db, actor, c);
    return stopUseCase(engine, conversationId, actor.userId);
  });
}
