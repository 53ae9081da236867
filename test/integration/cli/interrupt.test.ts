import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { openDatabase } from "../../../src/engine/database.js";
import { processStartTime } from "../../../src/engine/system/processes.js";
import { finished, until } from "../../support/codexEngine.js";
import { describe, expect, it } from "vitest";
import { cliHarness, CLI } from "./harness.js";

describe("codexpi ask --wait interrupted (real binary, fake model)", () => {
  const t = cliHarness();

  it("Ctrl-C on ask --wait: --stop-on-exit stops the agent; without it and without a TTY the agent keeps running and the follow-up command is printed", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    await t.relaxPolicy();
    t.db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    const codexOf = (conversationId: string) =>
      until(
        async () => {
          const r = await t
            .db!.selectFrom("prompt_queue")
            .selectAll()
            .where("conversation_id", "=", conversationId)
            .executeTakeFirst();
          return r?.codex_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
    async function interrupted(...extra: string[]) {
      const asking = t.cli("ask", "demo", "long", "--wait", ...extra);
      let stderr = "";
      asking.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const id = await until(
        async () => /conversation (\S+)/.exec(stderr)?.[1],
        30_000,
        "the conversation id",
      );
      const item = await codexOf(id);
      asking.kill("SIGINT");
      return { id, item, done: await asking };
    }

    t.fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
    const stopped = await interrupted("--stop-on-exit");
    expect(stopped.done.exitCode).toBe(130);
    expect(stopped.done.stdout).toContain("arrêtée");
    expect((await finished(t.db, stopped.item.id)).status).toBe("cancelled");
    await until(
      async () => processStartTime(stopped.item.codex_pid!) !== stopped.item.codex_start_time,
      10_000,
      "codex gone",
    );

    t.fake.enqueue({ kind: "shell", command: ["sleep", "3"] }, { kind: "text", text: "Réponse 8123" });
    const left = await interrupted();
    expect(left.done.exitCode).toBe(130);
    expect(left.done.stderr).toContain(`codexpi answer ${left.id}`);
    // The agent was left running: it finishes, and its answer is read later.
    expect((await finished(t.db, left.item.id)).status).toBe("done");
    const answer = await t.cli("answer", left.id);
    expect(answer.stdout.trim()).toBe("Réponse 8123");
  });

  // util-linux `script` provides the terminal; without it there is nothing to type into.
  it.skipIf(!fs.existsSync("/usr/bin/script"))(
    "Ctrl-C on ask --wait in a terminal asks whether to stop the agent, and stops it on yes",
    async () => {
      await t.setup();
      await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
      await t.relaxPolicy();
      t.db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
      t.fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
      // `script` gives the command a real terminal; Ctrl-C and the reply are typed into it.
      const command = [process.execPath, CLI, "ask", "demo", "long", "--wait"].map((a) => `'${a}'`).join(" ");
      const term = execa("script", ["-qfec", command, "/dev/null"], {
        env: t.env,
        reject: false,
        timeout: 60_000,
      });
      let screen = "";
      term.stdout?.on("data", (chunk: Buffer) => {
        screen += chunk.toString();
      });
      const id = await until(
        async () => /conversation (\S+)/.exec(screen)?.[1],
        30_000,
        "the conversation id",
      );
      const item = await until(
        async () => {
          const r = await t
            .db!.selectFrom("prompt_queue")
            .selectAll()
            .where("conversation_id", "=", id)
            .executeTakeFirst();
          return r?.codex_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
      term.stdin?.write("\x03");
      await until(async () => screen.includes("Arrêter l’agent ?"), 10_000, "the question");
      term.stdin?.write("o\r");
      await term;
      expect(screen).toContain("arrêtée");
      expect((await finished(t.db, item.id)).status).toBe("cancelled");
    },
  );
});
