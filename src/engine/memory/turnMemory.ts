import type { Kernel } from "../kernel.js";
import { memoryBrief } from "./brief.js";
import { keptNotes } from "./service.js";

/**
 * The team's notes a turn of the project is given, read from the shared database when the turn
 * starts (on the coordinator or a worker host alike): the project's, and those of the place its
 * conversation was started in (`conversations.place`, opaque); null when there are none.
 */
export async function turnMemory(
  kernel: Pick<Kernel, "db" | "config">,
  project: { id: string; name: string },
  place: string | null = null,
): Promise<string | null> {
  const notes = await keptNotes(kernel.db, project.id, place);
  return memoryBrief(project.name, notes, kernel.config.memoryChars, kernel.config.locale);
}
