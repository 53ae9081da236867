import { type Locale, t } from "../../i18n/index.js";

// What of a project's kept notes a turn is given (issue 34, item 3): the notes in the order they
// were kept, each quoted, as long as they fit the budget (CODEXPI_MEMORY_CHARS); those that do not
// fit are named, to the agent and to people (`/codex memory`), never dropped in silence.

/** A kept note as the brief needs it. */
export interface BriefNote {
  id: string;
  text: string;
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
 * the budget cut said; null when the project keeps none.
 */
export function memoryBrief(
  project: string,
  notes: readonly BriefNote[],
  budget: number,
  locale: Locale,
): string | null {
  if (!notes.length) return null;
  const fit = fitNotes(notes, budget);
  const given = new Set(fit.given);
  const lines = notes.filter((n) => given.has(n.id)).map(quotedNote);
  const parts = [t(locale, "agent.memory.head", { project, n: lines.length }), ...lines];
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
