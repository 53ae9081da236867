import type { Kysely } from "kysely";
import type { Conversation, DB, Project } from "../schema.js";
import { canRead, isSharedSpecialist, mayPromptProject, type Actor } from "./projectRights.js";
import { shareRight } from "./channelShares.js";

// Who may see and who may prompt a conversation: the one rule (DESIGN "See and prompt are
// distinct", "Shared specialists"). A shared specialist serves every conversation, so its own
// conversations carry other people's task texts: they are visible only to those who can see the
// conversation that delegated the task (and admins), and only admins prompt them.

/** What an agent asks a person: a decision (CODEXPI_DECISION) or an approval (an escalation). */
export type Question = "decision" | "approval";

/** What one actor may do with one conversation. */
export interface ConversationRights {
  /** Read it: its title, messages, delegation texts, in any listing (a channel's members too, when its project is visible to them). */
  see: boolean;
  /** Prompt it: follow up, stop (never given by reading). */
  prompt: boolean;
  /** Answer what its agent asks: a decision, an approval. */
  answer: Record<Question, boolean>;
}

/** A conversation with the project fields the rule reads. */
export interface ConversationRef {
  conversation: Pick<Conversation, "id" | "user_id">;
  project: Pick<
    Project,
    "id" | "owner_id" | "execution_group" | "visibility" | "channel_id" | "thread_prompters"
  >;
}

/** Delegation chains are at most three deep; this bounds a corrupt (cyclic) chain. */
const MAX_HOPS = 8;

/** The rights of `actor` on a conversation. */
export async function conversationRights(
  db: Kysely<DB>,
  actor: Actor,
  c: ConversationRef,
): Promise<ConversationRights> {
  if (!(await canSeeConversation(db, actor, c)))
    return { see: false, prompt: false, answer: { decision: false, approval: false } };
  if (actor.isAdmin) return { see: true, prompt: true, answer: { decision: true, approval: true } };
  const shared = isSharedSpecialist(c.project);
  const owner = c.project.owner_id !== null && c.project.owner_id === actor.userId;
  // Its person drives it while they may still prompt the project (an owner may disallow them); a
  // shared specialist's person is the root of a delegation chain, who never prompts it directly.
  const mayPromptIt = !shared && (await mayPromptProject(db, actor, c.project));
  const person = c.conversation.user_id === actor.userId && (shared || mayPromptIt);
  // DESIGN "A thread is the team's": with `prompters` (the default), anyone allowed to prompt the
  // project follows up, stops and answers decisions in any of its conversations; with `author`,
  // only its person (and the owner, admins).
  const teammate = c.project.thread_prompters !== "author" && mayPromptIt;
  const prompt = !shared && (owner || person || teammate);
  // DESIGN "Who answers a decision" / "Who answers an approval": the person at the root of the
  // conversation and admins, and a teammate where the thread is the team's; an approval concerns
  // the host, which the project's owner answers for (never a teammate: it is not about the work).
  return {
    see: true,
    prompt,
    answer: { decision: person || teammate, approval: person || owner },
  };
}

/**
 * Whether `actor` may answer a question asked in this conversation, whose person (recorded when it
 * was asked: the root of a delegation chain) is `personId`. False when there is no conversation.
 */
export async function mayAnswer(
  db: Kysely<DB>,
  actor: Actor,
  question: Question,
  conversationId: string,
  personId: string | null,
): Promise<boolean> {
  const ref = await refOf(db, conversationId);
  if (!ref) return false;
  const rights = await conversationRights(db, actor, {
    conversation: { id: ref.conversation.id, user_id: personId },
    project: ref.project,
  });
  return rights.answer[question];
}

/** Whether `actor` may see the conversation with this id (false when there is none). */
export async function canSeeConversationId(
  db: Kysely<DB>,
  actor: Actor,
  conversationId: string,
): Promise<boolean> {
  const ref = await refOf(db, conversationId);
  return ref !== undefined && canSeeConversation(db, actor, ref);
}

async function canSeeConversation(
  db: Kysely<DB>,
  actor: Actor,
  c: ConversationRef,
  hops = 0,
): Promise<boolean> {
  if (actor.isAdmin) return true;
  if (!isSharedSpecialist(c.project))
    return (
      canRead(actor, c.project) ||
      (await shareRight(db, actor, c.project.id)) !== "none" ||
      // Its person, and where the thread is the team's anyone who may drive it, see it.
      ((c.conversation.user_id === actor.userId || c.project.thread_prompters !== "author") &&
        (await mayPromptProject(db, actor, c.project)))
    );
  if (hops >= MAX_HOPS) return false;
  // A shared specialist's conversation is as visible as the one that delegated to it; one that no
  // delegation started (its bootstrap, an admin's own prompt) is for admins only.
  const delegation = await db
    .selectFrom("specialist_delegations")
    .select("source_conversation_id")
    .where("specialist_conversation_id", "=", c.conversation.id)
    .executeTakeFirst();
  const source = delegation ? await refOf(db, delegation.source_conversation_id) : undefined;
  return source !== undefined && canSeeConversation(db, actor, source, hops + 1);
}

async function refOf(db: Kysely<DB>, conversationId: string): Promise<ConversationRef | undefined> {
  const row = await db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select([
      "c.id",
      "c.user_id",
      "p.id as project_id",
      "p.owner_id",
      "p.execution_group",
      "p.visibility",
      "p.channel_id",
      "p.thread_prompters",
    ])
    .where("c.id", "=", conversationId)
    .executeTakeFirst();
  return (
    row && {
      conversation: { id: row.id, user_id: row.user_id },
      project: {
        id: row.project_id,
        owner_id: row.owner_id,
        execution_group: row.execution_group,
        visibility: row.visibility,
        channel_id: row.channel_id,
        thread_prompters: row.thread_prompters,
      },
    }
  );
}
