import type { Logger } from "pino";
import type { EngineApi } from "../engine/api/index.js";
import type { Clock } from "../engine/api/runtime.js";
import type { Locale } from "../i18n/index.js";
import type { ForgeComment } from "./comment.js";
import type { ForgeCiTries } from "./store/ciTries.js";
import type { ForgeDeliveries } from "./store/deliveries.js";
import type { ForgeLinks } from "./store/links.js";
import type { ForgeThreads } from "./store/threads.js";

// What the forge front end's parts share (handling a delivery, CI follow-ups, replies, publishing).

/** What handling needs: the engine API, the forge's store, Slack, who is an admin. */
export interface ForgeDeps {
  api: EngineApi;
  deliveries: ForgeDeliveries;
  links: ForgeLinks;
  threads: ForgeThreads;
  ciTries: ForgeCiTries;
  clock: Clock;
  logger: Logger;
  locale: Locale;
  isAdmin(userId: string): boolean;
}

/** Hidden in every comment codexpi posts: its own comments are never read as requests. */
export const OWN_MARK = "<!-- codexpi -->";
/** The pull request's (or issue's) key, `<project>:<forge>:<repo>:<pull|issue>#<number>`: one conversation each. */
export const threadKey = (projectId: string, c: Pick<ForgeComment, "forge" | "repo" | "onPull" | "number">) =>
  `${projectId}:${c.forge}:${c.repo.toLowerCase()}:${c.onPull ? "pull" : "issue"}#${c.number}`;
