import { type Locale, t } from "../../i18n/index.js";

// What of a project's kept notes a turn is given (issue 34, item 3): the notes in the order they
// were kept, each quoted, as long as they fit the budget (CODEXPI_MEMORY_CHARS); those that do not
// fit are named, to the agent and to people (`/codex memory`), never dropped in silence.
// A conversation started in a place (a Slack channel) is also given that place's notes, FIRST:
// narrowest first, as settings resolve (DESIGN), so that a channel's few notes are never crowded
// out of the budget by a long project list; each part is labelled for what it is.

/** A kept note as the brief needs it (`channel_id`: its place; null: the whole project). */
export interface BriefNote {
  id: string;
  text: string;
  channel_id?: string | null;
}

/** The notes in the order a turn is given them: its place's first, then the project's. */
export function placeFirst<N extends BriefNote>(notes: readonly N[]): N[] {
  return [...notes.filter((n) => n.channel_id), ...notes.filter((n) => !n.channel_id)];
}

/** Which notes fit the budget, and which were left out. */
export interface Fit {
  given: string[];
  leftOut: string[];
}

/** A note as the agent reads it: its id, then its text, every line quoted (`> `). */
const quotedNote = (n: BriefNote): string => `> [${n.id}] ${n.text.trim().split("\n").join("\n>   ")}`;

/**
 * The notes that fit `budget` characters (their quoted lines and the line breaks between them),
 * oldest first; a note too long for what is left is skipped and a shorter later one may still fit.
 */
export function fitNotes(notes: readonly BriefNote[], budget: number): Fit {
  const fit: Fit = { given: [], leftOut: [] };
  let used = 0;
  for (const n of notes) {
    const size = quotedNote(n).length + (fit.given.length ? 1 : 0);
    if (used + size <= budget) {
      fit.given.push(n.id);
      used += size;
    } else fit.leftOut.push(n.id);
  }
  return fit;
}

/**
 * The team's notes as Codex's developer instructions carry them, labelled and quoted, with what
 * the budget cut said; null when the project keeps none. `notes` are those of the project and of
 * the turn's place (those with a `channel_id`), never another place's.
 */
export function memoryBrief(
  project: string,
  notes: readonly BriefNote[],
  budget: number,
  locale: Locale,
): string | null {
  if (!notes.length) return null;
  const ordered = placeFirst(notes);
  const fit = fitNotes(ordered, budget);
  const given = new Set(fit.given);
  const kept = ordered.filter((n) => given.has(n.id));
  const ofPlace = kept.filter((n) => n.channel_id);
  const ofProject = kept.filter((n) => !n.channel_id);
  const parts = [t(locale, "agent.memory.head", { project, n: kept.length })];
  // Labelled only when a place's notes are there: a turn elsewhere reads exactly as before.
  if (ofPlace.length)
    parts.push(t(locale, "agent.memory.place_head", { n: ofPlace.length }), ...ofPlace.map(quotedNote));
  if (ofPlace.length && ofProject.length)
    parts.push(t(locale, "agent.memory.project_head", { n: ofProject.length }));
  parts.push(...ofProject.map(quotedNote));
  parts.push(t(locale, "agent.memory.end"));
  if (fit.leftOut.length)
    parts.push(
      t(locale, "agent.memory.left_out", {
        n: fit.leftOut.length,
        chars: budget,
        ids: fit.leftOut.join(", "),
      }),
    );
  return parts.join("\n");
}
