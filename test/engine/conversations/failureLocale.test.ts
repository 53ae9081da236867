import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { conversationView } from "../../../src/engine/read/conversations.js";
import { listIncidents } from "../../../src/engine/coordination/incidents.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { conversationRoot } from "../../../src/views/conversation.js";
import { incidentMessage } from "../../../src/views/coordination.js";
import { testEngine } from "../../support/engine.js";

// The engine's language (CODEXPI_LOCALE, French here) is not its readers': a row it writes
// about a vanished worker holds no sentence, and each reader sees the reason in their language.

const EN = "The worker stopped before the task was done (process interrupted).";
const FR = "Le worker s’est arrêté avant la fin de la tâche (processus interrompu).";

describe("failure rows hold no language", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("a worker reaped by a French engine reads in English for an English reader, in the thread and in the incident", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "fr" } });
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "work", "UOWNER");
    await env.engine.dispatch();
    const dead = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    await new Promise((r) => setTimeout(r, 50));
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: dead.pid!, worker_start_time: processStartTime(dead.pid!) })
      .where("id", "=", item.id)
      .execute();
    dead.kill("SIGKILL");
    await new Promise((r) => dead.once("exit", r));

    expect(await env.engine.tick()).toMatchObject({ reaped: [item.id] });
    const row = await env.db
      .selectFrom("prompt_queue")
      .select(["error", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row.error_code).toBe("interrupted");
    expect(row.error).not.toContain(FR);

    const snap = (await conversationView(env.db, conversation.id))!;
    const root = (locale: "en" | "fr") =>
      JSON.stringify(
        conversationRoot(locale, {
          conversationId: conversation.id,
          projectName: "demo",
          prompt: "work",
          userId: "UOWNER",
          status: "failed",
          error: snap!.error,
          errorCode: snap!.errorCode,
        }).blocks,
      );
    expect(root("en")).toContain(EN);
    expect(root("en")).not.toContain(FR);
    expect(root("fr")).toContain(FR);

    const [incident] = await listIncidents(env.db, { userId: "UOWNER", isAdmin: false });
    expect(JSON.stringify(incidentMessage("en", incident!).blocks)).toContain(EN);
    expect(JSON.stringify(incidentMessage("fr", incident!).blocks)).toContain(FR);
  });
});
