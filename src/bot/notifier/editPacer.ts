import { Defer } from "./defer.js";

/** Slack's edit limit on one message, roughly: an edit a second. */
const MIN_EDIT_INTERVAL_MS = 1_000;

/**
 * Keeps the edits of each state message (by its subject's id) at most one a second: an edit that
 * comes sooner throws Defer for the rest of the second, and the event is retried then.
 */
export class EditPacer {
  private readonly lastEdit = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Throws Defer when the subject's message was edited (or posted) less than a second ago. */
  check(id: string): void {
    const wait = (this.lastEdit.get(id) ?? 0) + MIN_EDIT_INTERVAL_MS - this.now();
    if (wait > 0) throw new Defer(wait);
  }

  /** How long ago the subject's message was last edited or posted (Infinity: never by this process). */
  age(id: string): number {
    const last = this.lastEdit.get(id);
    return last === undefined ? Number.POSITIVE_INFINITY : this.now() - last;
  }

  /** Records that the subject's message was just edited or posted. */
  edited(id: string): void {
    this.lastEdit.set(id, this.now());
  }
}
