// The public face of engine/memory: a project's notes, kept by its people for its agents (issue 34).

export { proposeNoteReactor } from "./proposals.js";
export { turnMemory } from "./turnMemory.js";
export {
  type MemoryListing,
  type NoteAccess,
  type NoteView,
  addNote,
  discardProposal,
  editNote,
  forgetNote,
  keepProposal,
  listNotes,
  noteCard,
  noteFor,
  notesOfProjects,
} from "./service.js";
