import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../../src/engine/database.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { finished, until } from "../../support/codexEngine.js";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi answer and stop (real binary, fake model)", () => {
  const t = cliHarness();

  it("answer prints a finished conversation's answer (no log line in answers); stop stops a running one: the item ends cancelled and Codex is gone", async () => {
    await t.setup();
    t.env.LOG_LEVEL = "debug";
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    await t.relaxPolicy();
    t.fake.enqueue({ kind: "text", text: "Réponse finie 4411" });
    const first = await t.cli("ask", "demo", "hello", "--wait");
    expect(first.exitCode).toBe(0);
    // Logs go to stderr or the worker's log file, never into the answer.
    expect(first.stdout.trim()).toBe("Réponse finie 4411");
    const id = /conversation (\S+)/.exec(first.stderr)?.[1] as string;
    t.db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    const item = await t.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", id)
      .executeTakeFirstOrThrow();
    const log = fs.readFileSync(path.join(t.dir, "data", "logs", `worker-${item.id}.log`), "utf8");
    expect(log.split("\n").filter((l) => l.startsWith("{")).length).toBeGreaterThan(0); // logs exist
    expect(first.stderr).not.toMatch(/^\{"level"/m); // the CLI's own logs are in its file

    const answer = await t.cli("answer", id);
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout.trim()).toBe("Réponse finie 4411");

    t.fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
    const asked = await t.cli("ask", "demo", "long", "--conversation", id);
    const queueId = /queued (\S+)/.exec(asked.stdout)?.[1] as string;
    const running = await until(
      async () => {
        const r = await t
          .db!.selectFrom("prompt_queue")
          .selectAll()
          .where("id", "=", queueId)
          .executeTakeFirst();
        return r?.codex_pid ? r : undefined;
      },
      30_000,
      "codex to start",
    );
    expect((await t.cli("answer", id)).exitCode).toBe(3); // still running
    const stopped = await t.cli("stop", id);
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain(`Conversation ${id} arrêtée`);
    expect((await finished(t.db, queueId)).status).toBe("cancelled");
    await until(
      async () => processStartTime(running.codex_pid!) !== running.codex_start_time,
      10_000,
      "codex gone",
    );
    const after = await t.cli("answer", id);
    expect(after.exitCode).toBe(1);
    expect(after.stderr).toContain("cancelled");
  });
});
