import type { Kernel } from "../kernel.js";
import { type Database, writeTransaction } from "../database.js";
import { EngineError } from "../errors.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import { MAX_NOTE_CHARS } from "../protocol/index.js";
import { type Actor, getProject, listProjects, projectNotFound } from "../projects/index.js";
import type { Project } from "../schema.js";
import { fitNotes, placeFirst } from "./brief.js";
import { mayWriteMemory } from "./rights.js";
import type { MemoryNote, NoteStatus } from "./schema.js";
import "./schema.js";

/** A note as front ends show it. */
export interface NoteView {
  id: string;
  project: string;
  text: string;
  /** The place (a Slack channel's opaque id) it is kept for; null: the whole project. */
  place: string | null;
  status: NoteStatus;
  source: MemoryNote["source"];
  addedBy: string;
  decidedBy: string | null;
  conversationId: string | null;
  /**
   * The place the proposal's conversation was started in (a card offers to keep it for that place
   * only); read for a card, null when it was started nowhere or was not read.
   */
  proposedIn?: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A project's kept notes as `/codex memory` and App Home show them. */
export interface MemoryListing {
  project: string;
  /** The place whose notes are listed beside the project's (null: the project's only, or all). */
  place: string | null;
  /** Whether the reader may keep, edit and forget its notes. */
  mayWrite: boolean;
  notes: NoteView[];
  /** The ids of the kept notes the budget leaves out of every turn (CODEXPI_MEMORY_CHARS). */
  leftOut: string[];
  budget: number;
}

/** A note with whether the reader may change it (an action's, a card's or a modal's read). */
export interface NoteAccess {
  note: NoteView;
  mayWrite: boolean;
}

const viewOf = (n: MemoryNote, project: Pick<Project, "name">): NoteView => ({
  id: n.id,
  project: project.name,
  text: n.text,
  place: n.channel_id,
  status: n.status,
  source: n.source,
  addedBy: n.added_by,
  decidedBy: n.decided_by,
  conversationId: n.conversation_id,
  createdAt: Number(n.created_at),
  updatedAt: Number(n.updated_at),
});

/** A note's text as kept: trimmed, not empty, not longer than a note may be. */
function noteText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > MAX_NOTE_CHARS)
    throw new EngineError("invalid", "memory_text_invalid", { max: MAX_NOTE_CHARS });
  return trimmed;
}

/** The project of that name the actor may read, else not_found (never revealing a hidden one). */
async function readableProject(db: Database, actor: Actor, name: string): Promise<Project> {
  const p = (await listProjects(db, actor)).find((x) => x.name === name);
  if (!p) throw await projectNotFound(db, actor, name);
  return p;
}

/**
 * The kept notes of a project, oldest first: the whole project's and, given a place, that place's
 * (what a turn of a conversation started there is given, within the budget); `all`: every place's.
 */
export async function keptNotes(
  db: Database,
  projectId: string,
  place: string | null | "all",
): Promise<MemoryNote[]> {
  let q = db
    .selectFrom("memory_notes")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("status", "=", "kept");
  if (place !== "all")
    q = q.where((eb) =>
      place === null
        ? eb("channel_id", "is", null)
        : eb.or([eb("channel_id", "is", null), eb("channel_id", "=", place)]),
    );
  return q.orderBy("created_at").orderBy("id").execute();
}

/**
 * The ids of kept notes the budget leaves out of some turn: a turn outside any place, or in any of
 * the places the notes are kept for (each place's notes first, then the project's).
 */
function leftOutOf(rows: readonly MemoryNote[], budget: number): string[] {
  const places = new Set<string | null>([null, ...rows.map((r) => r.channel_id)]);
  const out = new Set<string>();
  for (const place of places) {
    const given = rows.filter((r) => r.channel_id === null || r.channel_id === place);
    for (const id of fitNotes(placeFirst(given), budget).leftOut) out.add(id);
  }
  return rows.map((r) => r.id).filter((id) => out.has(id));
}

/**
 * Adds a kept note to a project (its owner and admins, its prompters when it lets them): for the
 * whole project, or given a place for the conversations started there only.
 */
export async function addNote(
  kernel: Kernel,
  actor: Actor,
  projectName: string,
  text: string,
  place: string | null = null,
): Promise<NoteView> {
  const project = await readableProject(kernel.db, actor, projectName);
  if (!(await mayWriteMemory(kernel.db, actor, project)))
    throw new EngineError("forbidden", "memory_not_allowed", { name: project.name });
  const now = kernel.clock.now();
  const row: MemoryNote = {
    id: newId().slice(0, 8),
    project_id: project.id,
    channel_id: place,
    text: noteText(text),
    status: "kept",
    source: "person",
    added_by: actor.userId,
    decided_by: actor.userId,
    conversation_id: null,
    queue_id: null,
    created_at: now,
    updated_at: now,
  };
  await kernel.db.insertInto("memory_notes").values(row).execute();
  return viewOf(row, project);
}

/**
 * A project's kept notes and, given a place, that place's (its first, as a turn there gets them),
 * with those the budget leaves out (anyone who may read the project).
 */
export async function listNotes(
  kernel: Kernel,
  actor: Actor,
  projectName: string,
  place: string | null = null,
): Promise<MemoryListing> {
  const project = await readableProject(kernel.db, actor, projectName);
  return listingOf(kernel, actor, project, place);
}

async function listingOf(
  kernel: Kernel,
  actor: Actor,
  project: Project,
  place: string | null | "all",
): Promise<MemoryListing> {
  const rows = placeFirst(await keptNotes(kernel.db, project.id, place));
  const budget = kernel.config.memoryChars;
  return {
    project: project.name,
    place: place === "all" ? null : place,
    mayWrite: await mayWriteMemory(kernel.db, actor, project),
    notes: rows.map((r) => viewOf(r, project)),
    leftOut: leftOutOf(rows, budget),
    budget,
  };
}

/** The notes of every project the actor may read that keeps any, every place's (App Home). */
export async function notesOfProjects(kernel: Kernel, actor: Actor): Promise<MemoryListing[]> {
  const listings: MemoryListing[] = [];
  for (const p of await listProjects(kernel.db, actor)) {
    const listing = await listingOf(kernel, actor, p, "all");
    if (listing.notes.length) listings.push(listing);
  }
  return listings;
}

/** One note the actor may read, with whether they may change it; not_found otherwise. */
export async function noteFor(
  kernel: Kernel,
  actor: Actor,
  id: string,
): Promise<NoteAccess & { project: Project }> {
  const n = await kernel.db.selectFrom("memory_notes").selectAll().where("id", "=", id).executeTakeFirst();
  const project = n ? await getProject(kernel.db, n.project_id) : null;
  const readable = project && (await listProjects(kernel.db, actor)).some((p) => p.id === project.id);
  if (!n || !project || !readable) throw new EngineError("not_found", "memory_note_not_found", { id });
  return { note: viewOf(n, project), mayWrite: await mayWriteMemory(kernel.db, actor, project), project };
}

/** A note the actor may change, or forbidden (they see it) / not_found (they do not). */
async function writable(kernel: Kernel, actor: Actor, id: string) {
  const found = await noteFor(kernel, actor, id);
  if (!found.mayWrite) throw new EngineError("forbidden", "memory_not_allowed", { name: found.project.name });
  return found;
}

/**
 * Moves a note from one of `from` to `to` (with a new text when given) if it is still there: a
 * second click, or two people clicking at once, find it moved and are told so.
 */
async function move(
  kernel: Kernel,
  actor: Actor,
  id: string,
  from: NoteStatus[],
  to: NoteStatus,
  change: { text?: string; forPlace?: boolean } = {},
): Promise<NoteView> {
  const { note } = await writable(kernel, actor, id);
  const { text } = change;
  const place = change.forPlace ? await placeOfNote(kernel, note) : note.place;
  const now = kernel.clock.now();
  // No global lock: the guarded move decides between two clicks, and the event goes with it.
  const moved = await writeTransaction(
    kernel.db,
    async (trx) => {
      const r = await trx
        .updateTable("memory_notes")
        .set({
          status: to,
          decided_by: actor.userId,
          updated_at: now,
          ...(text !== undefined ? { text } : {}),
          ...(change.forPlace ? { channel_id: place } : {}),
        })
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      // A proposal's card in its thread is redrawn (kept, edited, discarded) by the notifier.
      if (note.conversationId)
        await emit(trx, now, { kind: "memory.updated", conversationId: note.conversationId, noteId: id });
      return true;
    },
    { locks: [] },
  );
  if (!moved) {
    const current = (await noteFor(kernel, actor, id)).note;
    throw new EngineError("conflict", "memory_note_moved", { id, status: current.status });
  }
  return { ...note, status: to, decidedBy: actor.userId, updatedAt: now, text: text ?? note.text, place };
}

/** The place a proposal's conversation was started in, or invalid when it was started nowhere. */
async function placeOfNote(kernel: Kernel, note: NoteView): Promise<string> {
  const c = note.conversationId
    ? await kernel.db
        .selectFrom("conversations")
        .select("place")
        .where("id", "=", note.conversationId)
        .executeTakeFirst()
    : undefined;
  if (!c?.place) throw new EngineError("invalid", "memory_no_place", { id: note.id });
  return c.place;
}

/**
 * Keeps an agent's proposal as a note of its project or, `forPlace`, of the place its
 * conversation was started in only.
 */
export const keepProposal = (kernel: Kernel, actor: Actor, id: string, forPlace = false) =>
  move(kernel, actor, id, ["proposed"], "kept", { forPlace });

/** Discards an agent's proposal: nothing is kept. */
export const discardProposal = (kernel: Kernel, actor: Actor, id: string) =>
  move(kernel, actor, id, ["proposed"], "discarded");

/** Forgets a kept note: no turn is given it any more. */
export const forgetNote = (kernel: Kernel, actor: Actor, id: string) =>
  move(kernel, actor, id, ["kept"], "forgotten");

/** Changes a note's text; a proposal edited this way is kept with the new text. */
export const editNote = (kernel: Kernel, actor: Actor, id: string, text: string) =>
  move(kernel, actor, id, ["kept", "proposed"], "kept", { text: noteText(text) });

/** A note as its card shows it (the notifier's read), null once gone. */
export async function noteCard(kernel: Kernel, id: string): Promise<NoteView | null> {
  const n = await kernel.db.selectFrom("memory_notes").selectAll().where("id", "=", id).executeTakeFirst();
  if (!n) return null;
  const c = n.conversation_id
    ? await kernel.db
        .selectFrom("conversations")
        .select("place")
        .where("id", "=", n.conversation_id)
        .executeTakeFirst()
    : undefined;
  return { ...viewOf(n, await getProject(kernel.db, n.project_id)), proposedIn: c?.place ?? null };
}
