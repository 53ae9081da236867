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
  /** Keeps a note for a project (its owner and admins; its prompters when it lets them). */
  add(actor: Actor, project: string, text: string): Promise<NoteView>;
  /** A project's kept notes and what the budget leaves out (whoever may read the project). */
  list(actor: Actor, project: string): Promise<MemoryListing>;
  /** The notes of every project the actor may read that keeps any (App Home). */
  overview(actor: Actor): Promise<MemoryListing[]>;
  /** One note the actor may read, with whether they may change it. */
  get(actor: Actor, id: string): Promise<NoteAccess>;
  /** Keeps an agent's proposal. */
  keep(actor: Actor, id: string): Promise<NoteView>;
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
    add: (actor, project, text) => addNote(kernel, actor, project, text),
    list: (actor, project) => listNotes(kernel, actor, project),
    overview: (actor) => notesOfProjects(kernel, actor),
    get: async (actor, id) => {
      const { note, mayWrite } = await noteFor(kernel, actor, id);
      return { note, mayWrite };
    },
    keep: (actor, id) => keepProposal(kernel, actor, id),
    discard: (actor, id) => discardProposal(kernel, actor, id),
    edit: (actor, id, text) => editNote(kernel, actor, id, text),
    forget: (actor, id) => forgetNote(kernel, actor, id),
    card: (id) => noteCard(kernel, id),
  };
}
