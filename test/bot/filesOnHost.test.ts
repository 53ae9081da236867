import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killGroup } from "../../src/engine/system/processes.js";
import { functionCallOutputs, inputText, type ResponsesRequestBody } from "../support/fakeModel.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";
import { appMentionEvent } from "../support/slackRequests.js";

// Files in and out of a project placed on a worker host (`codexpi host`, its own data directory):
// the real bot, a real host process on the same database, real workers and Codex against the fake
// model. The files cross through the database; nothing of them is left there or staged.

const CLI = path.resolve("dist/bin/main.js");

/** A 1×1 PNG: its exact bytes must reach the model. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("files and a project on a worker host", () => {
  let bot: Awaited<ReturnType<typeof slackBot>> | undefined;
  let host: ChildProcess | undefined;
  afterEach(async () => {
    // A clean stop first (its standby worker goes with it), before the data dirs are removed.
    const h = host;
    if (h?.pid && h.exitCode === null) {
      const exited = new Promise((resolve) => h.once("exit", resolve));
      h.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (h.exitCode === null) killGroup(h.pid, "SIGKILL");
    }
    host = undefined;
    await bot?.close();
    bot = undefined;
  });

  it("S-FILE-13: a project on another host gets the files shared with its prompt, and what its agent hands back reaches the thread; nothing stays in the database", async () => {
    const script = [
      "cat .codexpi/inbox/notes.txt",
      "mkdir -p .codexpi/outbox",
      "printf 'made on the host\\n' > .codexpi/outbox/result.txt",
    ].join(" && ");
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en" },
      model: { respond: scriptedRespond({ "FILE-HOST": script }) },
    });
    const b = bot;
    const hostDir = path.join(path.dirname(b.config.dataDir), "host-data");
    const databaseUrl = b.env.DATABASE_URL ?? `sqlite:${b.config.databasePath}`;
    host = spawn(process.execPath, [CLI, "host", "--name", "remote"], {
      env: {
        ...process.env,
        ...b.env,
        ...b.codexEnv,
        CODEXPI_DATA_DIR: hostDir,
        DATABASE_URL: databaseUrl,
        NO_PROXY: "127.0.0.1,localhost",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    host.stdout?.on("data", (d) => {
      output += String(d);
    });
    host.stderr?.on("data", (d) => {
      output += String(d);
    });
    await eventually(() => output.includes("worker host remote started"), 30_000, `the host (${output})`);
    const placed = await b.command("project set demo --host remote", ADMIN);
    expect((await b.response(placed.responseId)).text).toContain("remote");

    const notes = b.slack.shared.share({
      name: "notes.txt",
      mimetype: "text/plain",
      content: Buffer.from("HOST-NOTES-42: read on the host\n"),
    });
    const png = b.slack.shared.share({ name: "shot.png", mimetype: "image/png", content: PNG });
    await b.event({
      ...appMentionEvent({
        user: OWNER,
        channel: "C1",
        text: `<@${b.slack.botUserId}> demo FILE-HOST read the notes`,
        ts: "1800000000.000900",
      }),
      files: [notes, png],
    });

    // What the agent handed back on the host is in the thread.
    const result = await eventually(
      () => b.slack.files.find((f) => f.completed && f.filename === "result.txt"),
      120_000,
      "the hand-back's upload",
    );
    expect(result.content.toString()).toBe("made on the host\n");
    expect(result.thread_ts).toBe("1800000000.000900");

    // The turn ran on the host (its worker's log is in the host's data dir, none in the bot's)…
    const item = await b.db.selectFrom("prompt_queue").select(["id", "status"]).executeTakeFirstOrThrow();
    expect(item.status).toBe("done");
    expect(fs.existsSync(path.join(hostDir, "logs", `worker-${item.id}.log`))).toBe(true);
    expect(fs.existsSync(path.join(b.config.dataDir, "logs", `worker-${item.id}.log`))).toBe(false);
    // …and its agent had both files: the image's bytes went to the model, the text was read.
    const first = b.model.requests.find((r) => inputText(r).includes("FILE-HOST")) as ResponsesRequestBody;
    expect(JSON.stringify(first)).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
    const outputs = b.model.requests
      .flatMap((r) => functionCallOutputs(r))
      .map((o) => JSON.stringify(o.output));
    expect(outputs.some((o) => o.includes("HOST-NOTES-42"))).toBe(true);

    // Nothing stays: no row in the database, nothing staged on either machine, nothing handed back.
    await eventually(
      async () => (await b.db.selectFrom("file_chunks").select("owner").execute()).length === 0,
      15_000,
      "the database's copies forgotten",
    );
    const left = (dir: string, side: string) => {
      const root = path.join(dir, "files", side);
      return fs.existsSync(root)
        ? fs.readdirSync(root, { recursive: true }).filter((f) => String(f).includes("."))
        : [];
    };
    await eventually(
      () => [hostDir, b.config.dataDir].every((d) => !left(d, "in").length && !left(d, "out").length),
      15_000,
      "no file left in either data dir",
    );
  }, 240_000);
});
