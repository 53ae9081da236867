import { inputText } from "../support/fakeModel.js";
import { eventually } from "../support/slackBot.js";
import type { forgeBot } from "./forgeBot.js";

// What the forge story tests (story.test.ts, story.gitlab.test.ts) wait for and read, on either forge.

type Env = Awaited<ReturnType<typeof forgeBot>>;

/** The conversation of each turn queued so far, in order. */
export const conversationsQueued = async (e: Env) =>
  (await e.db.selectFrom("prompt_queue").select("conversation_id").orderBy("created_at").execute()).map(
    (r) => r.conversation_id,
  );

/** Waits until every turn asked so far has ended done (a follow-up then starts a turn of its own). */
export const allDone = (e: Env, n: number) =>
  eventually(
    async () => {
      const rows = await e.db.selectFrom("prompt_queue").select("status").execute();
      return rows.length === n && rows.every((r) => r.status === "done");
    },
    60_000,
    `${n} turns done`,
  );

/** The first model request carrying `mark`, as its input text. */
export const modelAsked = (e: Env, mark: string) =>
  eventually(
    () => e.model.requests.find((r) => inputText(r).includes(mark)),
    60_000,
    `the model asked ${mark}`,
  ).then(inputText);
