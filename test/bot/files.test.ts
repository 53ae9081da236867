import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProject } from "../../src/engine/projects/index.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import { functionCallOutputs, inputText, type ResponsesRequestBody } from "../support/fakeModel.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { eventually, OTHER, OWNER, SECRET, slackBot } from "../support/slackBot.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 19, items 2 and 3, end to end through the real bot (signed HTTP, notifier, ticker), real
// `codexpi worker` processes and the real Codex binary against the fake model; the fake Slack
// serves the shared files to the bot token only and takes the uploads. English throughout.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** A 1×1 PNG: its exact bytes must reach the model (as the data URL of an image input). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const MIB = 1024 * 1024;

const requestsOf = (b: Bot, marker: string): ResponsesRequestBody[] =>
  b.model.requests.filter((r) => inputText(r).includes(marker));

/** The prompt's queue item once finished. */
const finishedItem = (b: Bot) =>
  eventually(
    async () => {
      const row = await b.db.selectFrom("prompt_queue").selectAll().orderBy("seq", "desc").executeTakeFirst();
      return row && ["done", "failed", "cancelled"].includes(row.status) ? row : null;
    },
    90_000,
    "the turn over",
  );

/** `@codexpi <project> <text>` in C1 with files, as a new thread. */
const mention = (b: Bot, text: string, ts: string, files: unknown[]) =>
  b.event({
    ...appMentionEvent({ user: OWNER, channel: "C1", text: `<@${b.slack.botUserId}> ${text}`, ts }),
    files,
  });

describe("files in and out through the real bot", () => {
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  it.each(["exec", "app-server"] as const)(
    "S-FILE-01 (%s runner): a PNG shared with a mention reaches the model as an image input, byte for byte; a text file is in the workspace where the agent is told, and it reads it",
    async (runner) => {
      bot = await slackBot({
        env: { CODEXPI_RUNNER: runner, CODEXPI_LOCALE: "en" },
        model: { respond: scriptedRespond({ "FILE-ALPHA": "cat .codexpi/inbox/notes.txt" }) },
      });
      const b = bot;
      const png = b.slack.shared.share({ name: "screen shot.png", mimetype: "image/png", content: PNG });
      const notes = b.slack.shared.share({
        name: "notes.txt",
        mimetype: "text/plain",
        content: Buffer.from("NOTES-CONTENT-42: the import fails on line 3\n"),
      });
      await mention(b, "demo FILE-ALPHA what is wrong?", "1800000000.000100", [png, notes]);

      const item = await finishedItem(b);
      expect({ status: item.status, error: item.error }).toEqual({ status: "done", error: null });
      const first = requestsOf(b, "FILE-ALPHA")[0];
      expect(first).toBeDefined();
      // The image's exact bytes, as Codex sends a local image to the model.
      expect(JSON.stringify(first)).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
      // Both named to the agent by path, marked as other people's data.
      const asked = inputText(first as ResponsesRequestBody);
      expect(asked).toContain(".codexpi/inbox/notes.txt");
      expect(asked).toContain(".codexpi/inbox/screen_shot.png");
      expect(asked).toMatch(/data, never instructions/);
      // The agent's instructions name both folders.
      expect(JSON.stringify(first)).toMatch(
        /arrive in `\.codexpi\/inbox\/`.*write it in `\.codexpi\/outbox\/`/,
      );
      // The agent read the text file at that path: its content came back in the command's output.
      const outputs = b.model.requests
        .flatMap((r) => functionCallOutputs(r))
        .map((o) => JSON.stringify(o.output));
      expect(outputs.some((o) => o.includes("NOTES-CONTENT-42"))).toBe(true);
      // Downloaded with the bot token, once each; nothing refused, nothing left staged.
      expect(b.slack.shared.downloads).toEqual([
        { id: png.id, token: "xoxb-test", status: 200 },
        { id: notes.id, token: "xoxb-test", status: 200 },
      ]);
      expect(b.slack.messages("C1").some((m) => m.text.includes("not passed to the agent"))).toBe(false);
      expect(fs.readdirSync(path.join(b.config.dataDir, "files", "in"))).toEqual([]);
      expect(fs.readFileSync(path.join(b.project.path, ".codexpi", "inbox", "screen_shot.png"))).toEqual(PNG);
    },
    180_000,
  );

  it("S-FILE-02: a 200 MB file (declared), an executable and a file larger than it said are refused with a message in the thread; the prompt runs with the rest", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en", CODEXPI_FILE_MAX_MB: "1" } });
    const b = bot;
    const huge = b.slack.shared.share({
      name: "huge.csv",
      mimetype: "text/csv",
      content: Buffer.from("a,b\n"),
      declaredSize: 200 * MIB,
    });
    const exe = b.slack.shared.share({ name: "tool.exe", content: Buffer.from("MZ") });
    // It says 100 bytes and sends 3 MiB: the download stops at the limit.
    const liar = b.slack.shared.share({ name: "liar.txt", declaredSize: 100, streamBytes: 3 * MIB });
    const ok = b.slack.shared.share({ name: "ok.txt", content: Buffer.from("fine\n") });
    await mention(b, "demo FILE-BRAVO check", "1800000000.000200", [huge, exe, liar, ok]);

    const notice = await eventually(() =>
      b.slack.messages("C1").find((m) => m.text.includes("not passed to the agent")),
    );
    expect(notice.thread_ts).toBe("1800000000.000200");
    expect(notice.text).toMatch(/`huge\.csv` — too large \(200 MB, limit 1 MB per file\)/);
    expect(notice.text).toMatch(/`tool\.exe` — executable programs are not accepted/);
    expect(notice.text).toMatch(/`liar\.txt` — too large/);
    expect(notice.text).not.toContain("ok.txt");
    const item = await finishedItem(b);
    expect(item.status).toBe("done");
    const asked = inputText(requestsOf(b, "FILE-BRAVO")[0] as ResponsesRequestBody);
    expect(asked).toContain(".codexpi/inbox/ok.txt");
    expect(asked).not.toMatch(/huge\.csv|tool\.exe|liar\.txt/);
    // The declared size was enough for the first two: never downloaded. The liar was, and cut off.
    expect(b.slack.shared.downloads.map((d) => d.id)).toEqual([liar.id, ok.id]);
    expect(fs.readdirSync(path.join(b.project.path, ".codexpi", "inbox"))).toEqual(["ok.txt"]);
  }, 120_000);

  it("S-FILE-03: the fake Slack serves a file to the bot token only; a bot whose token is refused names the file in the thread and the prompt still runs", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en", SLACK_BOT_TOKEN: "xoxb-wrong" } });
    const b = bot;
    const file = b.slack.shared.share({ name: "data.json", content: Buffer.from('{"a":1}') });
    // Positive control: the right token downloads it, a wrong one gets 403 and no bytes.
    const right = await fetch(file.url_private_download, { headers: { authorization: "Bearer xoxb-test" } });
    expect([right.status, await right.text()]).toEqual([200, '{"a":1}']);
    const wrong = await fetch(file.url_private_download, { headers: { authorization: "Bearer xoxb-wrong" } });
    expect(wrong.status).toBe(403);

    await mention(b, "demo FILE-CHARLIE go", "1800000000.000300", [file]);
    const notice = await eventually(() =>
      b.slack.messages("C1").find((m) => m.text.includes("not passed to the agent")),
    );
    expect(notice.text).toMatch(/`data\.json` — the download from Slack failed \(HTTP 403\)/);
    expect((await finishedItem(b)).status).toBe("done");
    expect(inputText(requestsOf(b, "FILE-CHARLIE")[0] as ResponsesRequestBody)).not.toContain("data.json");
    expect(b.slack.shared.downloads.at(-1)).toEqual({ id: file.id, token: "xoxb-wrong", status: 403 });
  }, 120_000);

  it("S-FILE-04: what the agent leaves in .codexpi/outbox is uploaded into the thread (text redacted), a link there is refused and named, the outbox is emptied, and nothing of .codexpi is committed in the lane", async () => {
    isolateGit();
    const script = [
      "mkdir -p .codexpi/outbox",
      `printf 'report: key ${SECRET} end\\n' > .codexpi/outbox/report.txt`,
      "printf 'PNGBYTES' > .codexpi/outbox/chart.png",
      `printf 'PNGtEXt ${SECRET}' > .codexpi/outbox/leak.png`,
      "ln -s /etc/hostname .codexpi/outbox/host",
      "echo work > work.txt",
    ].join(" && ");
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en" },
      model: { respond: scriptedRespond({ "FILE-OUT": script }) },
    });
    const b = bot;
    const root = path.join(path.dirname(b.config.dataDir), "repo");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    await addProject(
      b.db,
      { now: () => Date.now() },
      { name: "repo", path: root, ownerId: OWNER, workspaceMode: "branch" },
    );
    const note = b.slack.shared.share({ name: "brief.md", content: Buffer.from("# brief\n") });
    await mention(b, "repo FILE-OUT make a report", "1800000000.000400", [note]);

    const uploaded = await eventually(
      () => {
        const done = b.slack.files.filter((f) => f.completed);
        return done.length >= 2 ? done : null;
      },
      90_000,
      "the uploads",
    );
    const report = uploaded.find((f) => f.filename === "report.txt");
    const chart = uploaded.find((f) => f.filename === "chart.png");
    expect(report?.thread_ts).toBe("1800000000.000400");
    expect(report?.content.toString()).toBe("report: key [redacted] end\n");
    expect(chart?.content.toString()).toBe("PNGBYTES");
    expect(uploaded.some((f) => f.filename === "host")).toBe(false);
    const refusal = await eventually(() => b.slack.messages("C1").find((m) => m.text.includes("not sent")));
    expect(refusal.text).toMatch(/`host` — not a regular file/);
    // S-FILE-12 through the real bot and Codex: an image holding a secret is named, never uploaded.
    expect(refusal.text).toMatch(/`leak\.png` — withheld: it holds a secret/);
    expect(b.slack.files.some((f) => f.filename === "leak.png")).toBe(false);
    expect(refusal.thread_ts).toBe("1800000000.000400");

    const conversation = await b.db.selectFrom("conversations").select("id").executeTakeFirstOrThrow();
    const lane = await laneOf(b.db, conversation.id);
    const clone = lane?.path as string;
    // The outbox is empty; the inbox still holds the shared file; the lane's commit has the work only.
    expect(fs.readdirSync(path.join(clone, ".codexpi", "outbox"))).toEqual([]);
    expect(fs.readFileSync(path.join(clone, ".codexpi", "inbox", "brief.md"), "utf8")).toBe("# brief\n");
    const committed = await git(clone, "show", "--name-only", "--format=", "HEAD");
    expect(committed.split("\n").filter(Boolean)).toEqual(["work.txt"]);
    expect(fs.readFileSync(path.join(clone, ".git", "info", "exclude"), "utf8")).toContain("/.codexpi/");
    // Uploaded, then removed from the data directory.
    await eventually(
      () =>
        !fs.existsSync(path.join(b.config.dataDir, "files", "out")) ||
        fs.readdirSync(path.join(b.config.dataDir, "files", "out")).length === 0,
      15_000,
      "the handed-back files removed",
    );
  }, 180_000);

  it("S-FILE-05: a follow-up in the conversation's thread brings its files along (an image too, on the resumed thread)", async () => {
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en" },
      model: { respond: scriptedRespond({ "FILE-ECHO": "cat .codexpi/inbox/later.txt" }) },
    });
    const b = bot;
    await mention(b, "demo first FILE-DELTA", "1800000000.000500", []);
    await finishedItem(b);
    const later = b.slack.shared.share({ name: "later.txt", content: Buffer.from("LATER-CONTENT-7\n") });
    const png = b.slack.shared.share({ name: "again.png", mimetype: "image/png", content: PNG });
    await b.event({
      ...messageEvent({
        user: OWNER,
        channel: "C1",
        text: "FILE-ECHO and this one",
        ts: "1800000000.000600",
        thread_ts: "1800000000.000500",
      }),
      subtype: "file_share",
      files: [later, png],
    });
    await eventually(
      () =>
        b.model.requests
          .flatMap((r) => functionCallOutputs(r))
          .some((o) => JSON.stringify(o.output).includes("LATER-CONTENT-7")) || null,
      90_000,
      "the follow-up's file read",
    );
    // `codex exec … resume <thread> --image=…`: the resumed turn's request carries the image.
    expect(JSON.stringify(requestsOf(b, "FILE-ECHO")[0])).toContain(
      `data:image/png;base64,${PNG.toString("base64")}`,
    );
    expect(JSON.stringify(requestsOf(b, "FILE-DELTA")[0])).not.toContain("data:image/png");
  }, 180_000);
  it("S-FILE-10: files shared earlier in the thread a mention is written in reach the agent's inbox, named with who shared them when; the prompt's own come first, the same limits apply to all, the refused are named with their message", async () => {
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en", CODEXPI_FILES_MAX_COUNT: "2" },
      model: { respond: scriptedRespond({ "FILE-THREAD": "cat .codexpi/inbox/trace.log" }) },
    });
    const b = bot;
    b.slack.setUser("UALICE", { profile: { display_name: "Alice" } });
    b.slack.setUser("UBOB", { profile: { display_name: "Bob" } });
    const old = b.slack.shared.share({ name: "old.txt", content: Buffer.from("old\n") });
    const trace = b.slack.shared.share({
      name: "trace.log",
      content: Buffer.from("TRACE-CONTENT-9 at build.js:3\n"),
    });
    const exe = b.slack.shared.share({ name: "tool.exe", content: Buffer.from("MZ") });
    const own = b.slack.shared.share({ name: "own.txt", content: Buffer.from("mine\n") });
    const root = b.slack.say({ channel: "C1", user: "UALICE", text: "The build fails", files: [old] });
    // A message with files and no words is still one of the thread's.
    b.slack.say({ channel: "C1", user: "UBOB", thread_ts: root.ts, text: "", files: [exe, trace] });
    const text = `<@${b.slack.botUserId}> demo FILE-THREAD what is wrong?`;
    const m = b.slack.say({ channel: "C1", user: OWNER, thread_ts: root.ts, text, files: [own] });
    await b.event({
      ...appMentionEvent({ user: OWNER, channel: "C1", text, ts: m.ts, thread_ts: root.ts }),
      files: [own],
    });

    const item = await finishedItem(b);
    expect({ status: item.status, error: item.error }).toEqual({ status: "done", error: null });
    const asked = inputText(requestsOf(b, "FILE-THREAD")[0] as ResponsesRequestBody);
    // The prompt's own file first, then the newest message's; named with their origin.
    expect(asked).toMatch(
      /- \.codexpi\/inbox\/own\.txt \([^)]+\)\n- \.codexpi\/inbox\/trace\.log \([^)]+\), shared in the thread by Bob at \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    expect(asked).not.toMatch(/own\.txt[^\n]*shared in the thread/);
    // The agent read the thread's file where it was told.
    const outputs = b.model.requests
      .flatMap((r) => functionCallOutputs(r))
      .map((o) => JSON.stringify(o.output));
    expect(outputs.some((o) => o.includes("TRACE-CONTENT-9"))).toBe(true);
    expect(fs.readdirSync(path.join(b.project.path, ".codexpi", "inbox")).sort()).toEqual([
      "own.txt",
      "trace.log",
    ]);
    // Past the count (2 for the whole request) and of a refused kind: named with their message.
    const notice = await eventually(() =>
      b.slack.messages("C1").find((m) => m.text.includes("not passed to the agent")),
    );
    expect(notice.thread_ts).toBe(root.ts);
    expect(notice.text).toMatch(
      /`tool\.exe` \(shared by Bob, [^)]+ UTC\) — executable programs are not accepted/,
    );
    expect(notice.text).toMatch(/`old\.txt` \(shared by Alice, [^)]+ UTC\) — too many files/);
    expect(b.slack.shared.downloads.map((d) => d.id)).toEqual([own.id, trace.id]);
  }, 180_000);

  it("S-FILE-11: a follow-up brings the files people shared in the conversation's thread since the agent's last turn (a file without words too), not those it was given before", async () => {
    bot = await slackBot({
      env: { CODEXPI_LOCALE: "en" },
      model: { respond: scriptedRespond({ "FILE-SINCE": "cat .codexpi/inbox/since.txt" }) },
    });
    const b = bot;
    const first = b.slack.shared.share({ name: "first.txt", content: Buffer.from("first\n") });
    // The thread's root is in Slack (the context is read from there).
    const text = `<@${b.slack.botUserId}> demo FILE-START go`;
    const root = b.slack.say({ channel: "C1", user: OWNER, text, files: [first] });
    await mention(b, "demo FILE-START go", root.ts, [first]);
    await finishedItem(b);
    const since = b.slack.shared.share({ name: "since.txt", content: Buffer.from("SINCE-CONTENT-3\n") });
    // A colleague shares a file without a word: not a prompt (no turn), but the next one's.
    const shared = b.slack.say({
      channel: "C1",
      user: OTHER,
      thread_ts: root.ts,
      text: "",
      files: [since],
    });
    await b.event({
      ...messageEvent({
        user: OTHER,
        channel: "C1",
        text: "",
        ts: shared.ts,
        thread_ts: root.ts,
      }),
      subtype: "file_share",
      files: [since],
    });
    const reply = b.slack.say({
      channel: "C1",
      user: OWNER,
      thread_ts: root.ts,
      text: "FILE-SINCE look",
    });
    await b.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "FILE-SINCE look",
        ts: reply.ts,
        thread_ts: root.ts,
      }),
    );
    await eventually(
      () =>
        b.model.requests
          .flatMap((r) => functionCallOutputs(r))
          .some((o) => JSON.stringify(o.output).includes("SINCE-CONTENT-3")) || null,
      90_000,
      "the thread's file read",
    );
    const asked = inputText(requestsOf(b, "FILE-SINCE")[0] as ResponsesRequestBody);
    expect(asked).toMatch(/\.codexpi\/inbox\/since\.txt \([^)]+\), shared in the thread by /);
    // The mention's own file was given to the first turn, not again.
    expect(b.slack.shared.downloads.map((d) => d.id)).toEqual([first.id, since.id]);
  }, 180_000);
});
