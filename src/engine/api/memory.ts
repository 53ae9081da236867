import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import {
  addNote,
  discardProposal,
  editNote,
  forgetNote,
  keepProposal,
  listNotes,
  noteCard,
  noteFor,
  notesOfProjects,
  type MemoryListing,
  type NoteAccess,
  type NoteView,
} from "../memory/index.js";

/** Project memory: notes a project's people keep for its agents, and its agents' proposals (issue 34). */
export interface MemoryApi {
  /**
   * Keeps a note for a project (its owner and admins; its prompters when it lets them); given a
   * place (opaque: a Slack channel's id), for the conversations started there only.
   */
  add(actor: Actor, project: string, text: string, place?: string | null): Promise<NoteView>;
  /**
   * A project's kept notes and, given a place, that place's, with what the budget leaves out
   * (whoever may read the project).
   */
  list(actor: Actor, project: string, place?: string | null): Promise<MemoryListing>;
  /** The notes of every project the actor may read that keeps any (App Home). */
  overview(actor: Actor): Promise<MemoryListing[]>;
  /** One note the actor may read, with whether they may change it. */
  get(actor: Actor, id: string): Promise<NoteAccess>;
  /** Keeps an agent's proposal, for its project or (`forPlace`) its conversation's place only. */
  keep(actor: Actor, id: string, forPlace?: boolean): Promise<NoteView>;
  /** Discards an agent's proposal (nothing kept). */
  discard(actor: Actor, id: string): Promise<NoteView>;
  /** Changes a note's text (a proposal edited is kept). */
  edit(actor: Actor, id: string, text: string): Promise<NoteView>;
  /** Forgets a kept note. */
  forget(actor: Actor, id: string): Promise<NoteView>;
  /** What a proposal's card shows (the notifier's read), null once gone. */
  card(id: string): Promise<NoteView | null>;
}

export function memoryApi(kernel: Kernel): MemoryApi {
  return {
    add: (actor, project, text, place) => addNote(kernel, actor, project, text, place ?? null),
    list: (actor, project, place) => listNotes(kernel, actor, project, place ?? null),
    overview: (actor) => notesOfProjects(kernel, actor),
    get: async (actor, id) => {
      const { note, mayWrite } = await noteFor(kernel, actor, id);
      return { note, mayWrite };
    },
    keep: (actor, id, forPlace) => keepProposal(kernel, actor, id, forPlace ?? false),
    discard: (actor, id) => discardProposal(kernel, actor, id),
    edit: (actor, id, text) => editNote(kernel, actor, id, text),
    forget: (actor, id) => forgetNote(kernel, actor, id),
    card: (id) => noteCard(kernel, id),
  };
}
