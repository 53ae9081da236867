import type { WebClient } from "@slack/web-api";
import type { Database } from "../../engine/database.js";
import type { Locale } from "../../i18n/index.js";
import type { SlackPoster } from "./poster.js";
import type { EventRenderer, OutboxRow, Rendered } from "./renderer.js";

/** Run events in Slack (to be filled). */
export class RunMessages implements EventRenderer {
  readonly kinds: ReadonlySet<string> = new Set<string>();

  constructor(
    readonly db: Database,
    readonly client: WebClient,
    readonly poster: SlackPoster,
    readonly locale: Locale,
  ) {}

  async relevant(rows: OutboxRow[]): Promise<Set<number>> {
    return new Set(rows.map((r) => r.id));
  }

  async handle(): Promise<Rendered> {
    return "ignored";
  }

  async reportFailure(): Promise<void> {}
}
