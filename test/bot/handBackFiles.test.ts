import fs from "node:fs";
import path from "node:path";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../src/engine/api/index.js";
import { webClientOptions } from "../../src/bot/app.js";
import { Notifier } from "../../src/bot/notifier/notifier.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { finishItem } from "../../src/engine/conversations/outcome.js";
import { writeTransaction } from "../../src/engine/database.js";
import { emit } from "../../src/engine/outbox.js";
import { handBackDirOf } from "../../src/engine/files/index.js";
import { silentLogger } from "../../src/logger.js";
import { registerSecrets } from "../../src/redaction.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { testEngine } from "../support/engine.js";
import { askedInChannel } from "../support/slackAsked.js";

// Issue 19, item 3: the files a turn handed back reach its thread through the outbox, whatever
// fails on the way: the event is written with the turn's outcome, the files wait in the data
// directory, and a retried event uploads nothing twice.

const LIMITS = { maxFileBytes: 1024, maxMessageBytes: 2048, maxCount: 3, maxOutBytes: 1024, maxOutCount: 3 };

describe("handed-back files (outbox → Slack uploads)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  let slack: FakeSlack;
  afterEach(async () => {
    await slack?.close();
    await env?.close();
  });

  /**
   * A turn that handed `files` back (and had `refused` refused): the worker's part done — the files
   * in the data directory, the answer posted, the `conversation.files` event its outcome writes
   * (S-FILE-04 runs it whole) pending.
   */
  async function handedBack(
    files: Record<string, string | Buffer>,
    refused: Array<{ name: string; reason: "too_large"; size: number }>,
    limits = LIMITS,
  ) {
    env = await testEngine();
    slack = await startFakeSlack();
    const client = new WebClient("xoxb-test", webClientOptions({ slack: { apiUrl: slack.apiUrl } } as never));
    const notifier = new Notifier({
      api: createEngineApi(env.engine),
      db: env.db,
      client,
      clock: env.clock,
      logger: silentLogger,
      locale: "en",
      backoffBaseMs: 1_000,
      backoffMaxMs: 8_000,
      files: { dataDir: env.config.dataDir, limits },
    });
    const { conversation } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "make a report",
      "UOWNER",
      {
        onCreated: askedInChannel(env, "C1"),
      },
    );
    const [claim] = (await env.engine.dispatch()).started;
    // What the worker moved out of the agent's outbox.
    const dir = handBackDirOf(env.config.dataDir, claim!.id);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
    await writeTransaction(env.db, (trx) =>
      finishItem(trx, env.clock, env.engine.hook, claim!, {
        status: "done",
        content: "here it is",
        error: null,
        errorCode: null,
      }),
    );
    await drainUntilIdle(notifier); // the turn's answer, posted
    await writeTransaction(env.db, (trx) =>
      emit(trx, env.clock.now(), {
        kind: "conversation.files",
        conversationId: conversation.id,
        queueId: claim!.id,
        files: Object.entries(files).map(([name, content]) => ({ name, size: Buffer.byteLength(content) })),
        refused,
      }),
    );
    return { notifier, dir };
  }

  it("S-FILE-09: a handed-back files event that fails half-way is retried: what was uploaded is not uploaded again, the refusals are named once, the files are removed from the data directory", async () => {
    const { notifier, dir } = await handedBack({ "a.txt": "AAA", "b.csv": "x,y\n" }, [
      { name: "huge.bin", reason: "too_large", size: 5000 },
    ]);
    // Both uploads go, then the refusal notice fails once (Slack down): the event is retried.
    slack.failNext("chat.postMessage", { status: 503 });
    await drainUntilIdle(notifier);
    const completed = slack.files.filter((f) => f.completed).map((f) => f.filename);
    expect(completed.sort()).toEqual(["a.txt", "b.csv"]);
    // Positive control that the event was retried: the notice's first post was refused.
    expect(slack.callsTo("chat.postMessage").filter((c) => c.injected)).toHaveLength(1);
    expect(slack.callsTo("files.getUploadURLExternal")).toHaveLength(2);
    const notices = slack.messages("C1").filter((m) => m.text.includes("not sent"));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toMatch(/`huge\.bin` — too large \(4\.9 KB, limit 1 KB per file\)/);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("S-FILE-12: a handed-back image or PDF whose bytes hold a secret is withheld and named; the same kind of file without one is uploaded", async () => {
    const key = "sk-proj-FAKEagentkey0123456789abcdefXYZ";
    registerSecrets([key]); // the model credential the agent can read (configuredSecrets)
    const png = (text: string) =>
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
        Buffer.from(text),
      ]);
    // The agent hid the key in an image's text chunk, and in a PDF; the chart is clean.
    const files = {
      "leak.png": png(`tEXtComment\0${key}`),
      "leak.pdf": Buffer.from(`%PDF-1.4\n(${key}) Tj\n%%EOF`),
      "chart.png": png("tEXtComment\0a bar chart"),
    };
    const { notifier, dir } = await handedBack(files, [], { ...LIMITS, maxOutBytes: 4096 });
    // The notice's first post fails (Slack down): the retried event names the withheld files again.
    slack.failNext("chat.postMessage", { status: 503 });
    await drainUntilIdle(notifier);
    expect(slack.callsTo("chat.postMessage").filter((c) => c.injected)).toHaveLength(1);
    // Positive control: an image goes up as its bytes.
    expect(slack.files.filter((f) => f.completed).map((f) => f.filename)).toEqual(["chart.png"]);
    // Nothing of the key reached Slack, in a file or a message.
    expect(JSON.stringify(slack.calls)).not.toContain(key);
    expect(slack.files.some((f) => f.content.toString("latin1").includes(key))).toBe(false);
    const notice = slack.messages("C1").find((m) => m.text.includes("not sent"));
    expect(notice?.text).toContain("`leak.png` — withheld: it holds a secret codexpi knows");
    expect(notice?.text).toContain("`leak.pdf` — withheld");
    expect(fs.existsSync(dir)).toBe(false);
  });

  async function drainUntilIdle(notifier: Notifier) {
    for (let i = 0; i < 30; i++) {
      await notifier.drainOnce();
      const pending = await env.db
        .selectFrom("outbox")
        .select("id")
        .where("status", "=", "pending")
        .execute();
      if (!pending.length) return;
      env.clock.advance(2_000);
    }
    throw new Error("outbox did not drain");
  }
});
