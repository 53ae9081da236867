import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { openDatabase } from "../../../src/engine/database.js";
import { systemClock } from "../../../src/engine/clock.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { finished, until } from "../../support/codexEngine.js";
import { describe, expect, it } from "vitest";
import { cliHarness, CLI } from "./harness.js";

describe("codexpi serve killed under a worker (real binary, fake model)", () => {
  const t = cliHarness();

  it("the bot killed while a worker runs does not stop the worker, whose outcome is recorded", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    await t.relaxPolicy();
    // The agent runs a 2 s command, so the worker is mid-turn when the bot dies.
    t.fake.enqueue({ kind: "shell", command: ["sleep", "2"] }, { kind: "text", text: "survived the bot" });
    const serve = execa(process.execPath, [CLI, "serve"], {
      env: {
        ...t.env,
        CODEXPI_HEADLESS: "1",
        CODEXPI_TICK: "*/1 * * * * *",
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
      },
      reject: false,
    });
    t.servers.push(serve);
    // Queued without dispatching, so that the bot's own tick spawns the worker.
    t.db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    const project = await t.db
      .selectFrom("projects")
      .selectAll()
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    const queueId = (await startConversation(t.db, systemClock, project, "long task", "cli")).item.id;
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
    // spawned by serve: the worker's parent is the bot
    expect(fs.readFileSync(`/proc/${running.worker_pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]).toBe(
      String(serve.pid),
    );
    serve.kill("SIGKILL");
    await serve;
    expect(processStartTime(running.worker_pid!)).toBe(running.worker_start_time); // the worker outlived the bot
    const row = await finished(t.db, queueId);
    expect(row.status).toBe("done");
    const answer = await t.db
      .selectFrom("messages")
      .select("content")
      .where("queue_id", "=", queueId)
      .where("role", "=", "assistant")
      .executeTakeFirstOrThrow();
    expect(answer.content).toBe("survived the bot");
  });
});
