import { shipStaged, type Attachment } from "../files/index.js";
import { runUseCase, runUseCaseDispatched, withEffects, type Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import type { Kysely } from "kysely";
import type { OnCreated } from "../database.js";
import type { Conversation, DB, Project } from "../schema.js";
import { conversationRights } from "../projects/index.js";
import { enqueueOnce, itemOfRequest, startConversation } from "./conversations.js";
import {
  getProject,
  isSharedSpecialist,
  mayPromptProject,
  projectForActor,
  type Actor,
} from "../projects/index.js";
import { stopUseCase, type StopReport } from "./stop.js";
import { checkRequestOptions, parseRequestOptions, refusalError } from "./requestOptions.js";
import { type PlaceSettings, resolveSettings } from "./placeSettings.js";
import { fitToBudget, threadContextSchema, type ThreadContext } from "../threadContext/index.js";
import { assertWithinBudget } from "../usage/index.js";

/** A conversation with the project it belongs to. */
export interface ConversationWithProject {
  conversation: Conversation;
  project: Project;
}

/**
 * May `actor` drive this conversation (follow up, stop)? Its user, the project's owner and admins
 * may, and, unless the project says `--thread-prompters author`, anyone allowed to prompt the
 * project; a shared specialist's conversations only admins (see access.ts). Anyone who cannot even
 * see the conversation gets "not found", as if it did not exist.
 */
async function assertCanDrive(db: Kysely<DB>, actor: Actor, c: ConversationWithProject): Promise<void> {
  const rights = await conversationRights(db, actor, c);
  // Whether they may prompt the project is theirs to know (a front end that found the conversation
  // where they stand, its Slack thread, tells them to start their own); nothing of the conversation is.
  if (!rights.see)
    throw new EngineError("not_found", "conversation_not_found", {
      name: c.conversation.id,
      may_prompt_project: (await mayPromptProject(db, actor, c.project)) ? 1 : 0,
    });
  if (rights.prompt) return;
  if (isSharedSpecialist(c.project)) throw new EngineError("forbidden", "specialist_shared_admins_only");
  // They see it: told who may prompt here and what they may do instead, never "not found".
  throw new EngineError("forbidden", "conversation_reserved", {
    project: c.project.name,
    owner: c.project.owner_id ?? "",
    author: c.conversation.user_id ?? "",
    may_prompt_project: (await mayPromptProject(db, actor, c.project)) ? 1 : 0,
    // Who drives it besides its author: what the refused person reads depends on it.
    thread_prompters: c.project.thread_prompters,
  });
}

/** Where a prompt comes from: the adapter's request key makes a replayed request queue it once. */
export interface RequestOrigin {
  requestKey?: string | null;
  /** The adapter's own rows for a conversation this request starts (where it lives there). */
  onCreated?: OnCreated;
  /** The files shared with the prompt, staged by the adapter (issue 19): its turn gets them. */
  attachments?: readonly Attachment[];
  /**
   * Other people's words from where the request was written (a Slack thread): kept with the
   * queued prompt, within the configured budget, and quoted into it as untrusted data.
   */
  context?: ThreadContext | null;
  /**
   * The settings of where it was written (a Slack channel's), for one project: under the request's
   * own options, over the project's defaults (DESIGN "Settings resolve narrowest first").
   */
  place?: PlaceSettings | null;
  /**
   * The opaque id of where it was written (a Slack channel's), kept on a conversation it starts:
   * the notes kept for that place reach its turns (engine/memory). Never read as anything else.
   */
  placeId?: string | null;
  /**
   * The display name of the person who wrote a follow-up (the front end knows it): the agent is
   * told who wrote it when it is not the conversation's author, or the thread is shared.
   */
  writerName?: string | null;
}

/** The request's context checked and cut to the budget (null when none was given). */
function contextOf(engine: Kernel, request: RequestOrigin): ThreadContext | null {
  if (!request.context) return null;
  const parsed = threadContextSchema.safeParse(request.context);
  if (!parsed.success) throw new EngineError("invalid", "thread_context_invalid");
  return fitToBudget(parsed.data, engine.config.threadContext);
}

/**
 * Refuses a prompt over budget (see engine/usage), except a replayed request: its prompt is
 * already queued, and the replay answers what the first delivery did.
 */
async function budgetUnlessReplayed(
  engine: Kernel,
  request: RequestOrigin,
  chargee: Parameters<typeof assertWithinBudget>[1],
): Promise<void> {
  if (await itemOfRequest(engine.db, request.requestKey)) return;
  await assertWithinBudget(engine, chargee);
}

/**
 * A project placed on a worker host runs where this data directory is not: the prompt's staged
 * files go through the database, before the prompt is queued (the host may claim it at once).
 */
async function shipFilesToHost(
  engine: Kernel,
  project: Pick<Project, "host">,
  request: RequestOrigin,
): Promise<void> {
  if (project.host === null || !request.attachments?.length) return;
  // A replayed request's prompt is queued already, with its files.
  if (await itemOfRequest(engine.db, request.requestKey)) return;
  await shipStaged(engine.db, engine.clock, engine.config.dataDir, request.attachments);
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
    const settings = resolveSettings(project, parsed.options, request.place);
    await checkRequestOptions(engine, project, settings.options);
    // Over budget: refused before anything is queued (OverBudgetError carries the refusal).
    await budgetUnlessReplayed(engine, request, {
      projectId: project.id,
      projectName: project.name,
      person: actor.userId,
    });
    await shipFilesToHost(engine, project, request);
    const started = await startConversation(engine.db, engine.clock, project, parsed.prompt, actor.userId, {
      requestKey: request.requestKey,
      onCreated: request.onCreated,
      options: { ...settings.options, instructions: settings.instructions, place: request.placeId ?? null },
      context: contextOf(engine, request),
      attachments: request.attachments,
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
  const { value, dispatched } = await runUseCaseDispatched(engine, async () => {
    await assertCanDrive(engine.db, actor, c);
    await budgetUnlessReplayed(engine, request, {
      projectId: c.project.id,
      projectName: c.project.name,
      person: actor.userId,
    });
    await shipFilesToHost(engine, c.project, request);
    const queued = await enqueueOnce(engine.db, engine.clock, c.conversation.id, prompt, {
      requestedBy: actor.userId,
      requestKey: request.requestKey,
      context: contextOf(engine, request),
      attachments: request.attachments,
      writerName: await writerToName(engine.db, actor, c, request),
    });
    return withEffects(queued, { dispatch: true });
  });
  // `duplicate`: the request was queued before (a replay, or a twin delivery of the same message).
  return { item: value.item, duplicate: value.duplicate, paused: dispatched?.paused ?? [] };
}

/**
 * The name the agent is given for a follow-up's writer (DESIGN "A thread is the team's"): named
 * when they did not start the conversation, and then on every later follow-up of that (shared)
 * thread, its author's included; null in a thread only its author ever wrote in.
 */
async function writerToName(
  db: Kysely<DB>,
  actor: Actor,
  c: ConversationWithProject,
  request: RequestOrigin,
): Promise<string | null> {
  const name = request.writerName?.trim() || actor.userId;
  const author = c.conversation.user_id;
  if (actor.userId !== author) return name;
  const teammate = await db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", c.conversation.id)
    .where("requested_by", "is not", null)
    .where("requested_by", "<>", author ?? "")
    .executeTakeFirst();
  return teammate ? name : null;
}

/** Stops a conversation on behalf of a user allowed to drive it. */
export async function stop(engine: Kernel, actor: Actor, conversationId: string): Promise<StopReport> {
  return runUseCase(engine, async () => {
    const c = await loadConversation(engine, conversationId);
    await assertCanDrive(engine.db, actor, c);
    return stopUseCase(engine, conversationId, actor.userId);
  });
}
