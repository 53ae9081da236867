/**
 * Proves the fake Slack (test/support/fakeSlack.ts) and the request builders
 * (test/support/slackRequests.ts) work with the REAL libraries codexpi uses: `@slack/web-api`'s
 * WebClient (encoding, errors, retries off, file upload v2), Bolt 5.1 in HTTP mode (signature
 * checks, acks, respond()) and Bolt in Socket Mode (apps.connections.open, hello, envelopes, acks).
 * If a library upgrade changes what it sends or expects, these tests fail first.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { App, LogLevel, SocketModeReceiver } from "@slack/bolt";
import { ErrorCode, WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSlack, type FakeSlack } from "./fakeSlack.js";
import {
  blockActionPayload,
  eventBody,
  eventPayload,
  interactionBody,
  messageEvent,
  postSigned,
  signSlackRequest,
  slashCommandBody,
  slashCommandPayload,
  viewSubmissionPayload,
} from "./slackRequests.js";

const SIGNING_SECRET = "test-signing-secret";

let fake: FakeSlack | undefined;
const apps: App[] = [];

afterEach(async () => {
  // Stop apps first: a Socket Mode client whose server vanishes tries to reconnect.
  for (const app of apps.splice(0)) {
    await app.stop().catch(() => undefined);
  }
  await fake?.close();
  fake = undefined;
});

async function newFake(): Promise<FakeSlack> {
  fake = await startFakeSlack({ botUserId: "UBOT", botId: "BBOT", teamId: "T1" });
  return fake;
}

function client(f: FakeSlack, token = "xoxb-test"): WebClient {
  return new WebClient(token, {
    slackApiUrl: f.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: LogLevel.ERROR,
  });
}

interface CodedError extends Error {
  code?: string;
  retryAfter?: number;
  statusCode?: number;
  data?: { error?: string };
}

async function errorOf(p: Promise<unknown>): Promise<CodedError> {
  try {
    await p;
  } catch (err) {
    return err as CodedError;
  }
  throw new Error("expected a rejection");
}

describe("fake Slack Web API with the real WebClient", () => {
  it("auth.test answers with the configured identities and records the token", async () => {
    const f = await newFake();
    const res = await client(f).auth.test();
    expect(res).toMatchObject({ ok: true, user_id: "UBOT", bot_id: "BBOT", team_id: "T1" });
    expect(f.callsTo("auth.test")[0]).toMatchObject({ token: "xoxb-test", status: 200, ok: true });
  });

  it("posts, updates, deletes and reads history and replies with metadata", async () => {
    const f = await newFake();
    const c = client(f);
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }];
    const metadata = { event_type: "codexpi_conversation", event_payload: { conversation_id: "c1" } };
    const parent = await c.chat.postMessage({ channel: "C1", text: "hello", blocks, metadata });
    expect(parent).toMatchObject({ ok: true, channel: "C1", ts: "1700000000.000100" });
    const reply = await c.chat.postMessage({ channel: "C1", text: "reply", thread_ts: parent.ts as string });
    expect(reply.ts).toBe("1700000000.000200");

    // The fake decoded the JSON-encoded form fields.
    const call = f.callsTo("chat.postMessage")[0];
    expect(call?.args.blocks).toEqual(blocks);
    expect(call?.args.metadata).toEqual(metadata);

    const upd = await c.chat.update({ channel: "C1", ts: parent.ts as string, text: "edited" });
    expect(upd.ok).toBe(true);
    expect(f.messages("C1").map((m) => m.text)).toEqual(["edited", "reply"]);
    expect(f.messages("C1")[0]?.updates).toBe(1);

    const missing = await errorOf(c.chat.update({ channel: "C1", ts: "1.000001", text: "x" }));
    expect(missing.code).toBe(ErrorCode.PlatformError);
    expect(missing.data?.error).toBe("message_not_found");

    const hist = await c.conversations.history({ channel: "C1", include_all_metadata: true, limit: 10 });
    expect(hist.messages).toHaveLength(1); // replies are not in history
    expect(hist.messages?.[0]).toMatchObject({ ts: parent.ts, text: "edited", reply_count: 1, metadata });
    const histNoMd = await c.conversations.history({ channel: "C1" });
    expect(histNoMd.messages?.[0]?.metadata).toBeUndefined();

    const replies = await c.conversations.replies({
      channel: "C1",
      ts: parent.ts as string,
      include_all_metadata: true,
    });
    expect(replies.messages?.map((m) => m.text)).toEqual(["edited", "reply"]);
    const newer = await c.conversations.replies({
      channel: "C1",
      ts: parent.ts as string,
      oldest: reply.ts as string,
    });
    expect(newer.messages?.map((m) => m.ts)).toEqual([parent.ts]); // parent always first; oldest is exclusive

    await c.chat.delete({ channel: "C1", ts: reply.ts as string });
    expect(f.messages("C1")).toHaveLength(1);
  });

  it("history honours oldest, limit and newest-first order", async () => {
    const f = await newFake();
    const c = client(f);
    const ts: string[] = [];
    for (let i = 0; i < 5; i++)
      ts.push((await c.chat.postMessage({ channel: "C2", text: `m${i}` })).ts as string);
    const res = await c.conversations.history({ channel: "C2", oldest: ts[1], limit: 2 });
    expect(res.messages?.map((m) => m.text)).toEqual(["m4", "m3"]);
    expect(res.has_more).toBe(true);
    const next = await c.conversations.history({
      channel: "C2",
      oldest: ts[1],
      limit: 2,
      cursor: res.response_metadata?.next_cursor,
    });
    expect(next.messages?.map((m) => m.text)).toEqual(["m2"]);
  });

  it("ephemerals, DMs, users, views, permalinks and unknown methods", async () => {
    const f = await newFake();
    const c = client(f);
    const eph = await c.chat.postEphemeral({ channel: "C1", user: "U1", text: "only you" });
    expect(eph.message_ts).toBeTruthy();
    expect(f.ephemerals).toEqual([expect.objectContaining({ channel: "C1", user: "U1", text: "only you" })]);

    const dm = await c.conversations.open({ users: "U42" });
    expect(dm.channel?.id).toBe(f.dmChannel("U42"));
    expect((await c.conversations.open({ users: "U42" })).channel?.id).toBe(dm.channel?.id);

    f.setUser("U42", { tz: "Europe/Paris", is_admin: true });
    const user = await c.users.info({ user: "U42" });
    expect(user.user).toMatchObject({ id: "U42", tz: "Europe/Paris", is_admin: true });

    const home = await c.views.publish({
      user_id: "U42",
      view: { type: "home", blocks: [{ type: "divider" }] },
    });
    expect(home.view?.id).toMatch(/^V/);
    const modal = await c.views.open({
      trigger_id: "1.2.abc",
      view: {
        type: "modal",
        callback_id: "policy",
        private_metadata: "C1",
        title: { type: "plain_text", text: "Policy" },
        submit: { type: "plain_text", text: "Save" },
        blocks: [
          {
            type: "input",
            block_id: "b",
            label: { type: "plain_text", text: "L" },
            element: { type: "plain_text_input", action_id: "a" },
          },
        ],
      },
    });
    await c.views.update({
      view_id: modal.view?.id as string,
      view: { type: "modal", title: { type: "plain_text", text: "Done" }, blocks: [] },
    });
    expect(f.views.map((v) => v.method)).toEqual(["views.publish", "views.open", "views.update"]);

    const tooLongTitle = await errorOf(
      c.views.open({
        trigger_id: "t",
        view: { type: "modal", title: { type: "plain_text", text: "x".repeat(25) }, blocks: [] },
      }),
    );
    expect(tooLongTitle.data?.error).toBe("invalid_arguments");
    const noBlocks = await errorOf(c.apiCall("views.publish", { user_id: "U1", view: { type: "home" } }));
    expect(noBlocks.data?.error).toBe("invalid_arguments");

    const tooMany = await errorOf(
      c.chat.postMessage({
        channel: "C1",
        text: "x",
        blocks: Array.from({ length: 51 }, () => ({ type: "divider" })),
      }),
    );
    expect(tooMany.data?.error).toBe("invalid_blocks");

    const posted = await c.chat.postMessage({ channel: "U42", text: "dm by user id" });
    expect(posted.channel).toBe(f.dmChannel("U42"));
    const link = await c.chat.getPermalink({
      channel: posted.channel as string,
      message_ts: posted.ts as string,
    });
    expect(link.permalink).toContain(posted.channel as string);

    const unknown = await errorOf(c.apiCall("bogus.method", {}));
    expect(unknown.data?.error).toBe("unknown_method");
    expect(f.callsTo("bogus.method")).toHaveLength(1);
  });

  it("surfaces an injected 429 as a rate-limited error with retryAfter", async () => {
    const f = await newFake();
    f.failNext("chat.postMessage", { status: 429, retryAfter: 7 });
    const err = await errorOf(client(f).chat.postMessage({ channel: "C1", text: "x" }));
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    expect(err.retryAfter).toBe(7);
    expect(f.messages()).toHaveLength(0);
    expect(f.callsTo("chat.postMessage")[0]).toMatchObject({ status: 429, injected: true });
    // Only the next call failed.
    await client(f).chat.postMessage({ channel: "C1", text: "x" });
    expect(f.messages()).toHaveLength(1);
  });

  it("surfaces a 500 as an HTTP error and an error string as a platform error", async () => {
    const f = await newFake();
    const c = client(f);
    f.failNext("chat.update", { status: 500 });
    const httpErr = await errorOf(c.chat.update({ channel: "C1", ts: "1.1", text: "x" }));
    expect(httpErr.code).toBe(ErrorCode.HTTPError);
    expect(httpErr.statusCode).toBe(500);

    f.failNext("chat.postMessage", { error: "not_in_channel" }, 2);
    for (let i = 0; i < 2; i++) {
      const err = await errorOf(c.chat.postMessage({ channel: "C9", text: "x" }));
      expect(err.code).toBe(ErrorCode.PlatformError);
      expect(err.data?.error).toBe("not_in_channel");
    }
    await c.chat.postMessage({ channel: "C9", text: "x" });

    f.setChannelError("C8", "channel_not_found");
    expect((await errorOf(c.chat.postMessage({ channel: "C8", text: "x" }))).data?.error).toBe(
      "channel_not_found",
    );

    f.outage(true);
    expect((await errorOf(c.auth.test())).code).toBe(ErrorCode.HTTPError);
    f.outage(false);
    expect((await c.auth.test()).ok).toBe(true);
  });

  it("dropResponse performs the call but the client sees a request error", async () => {
    const f = await newFake();
    f.failNext("chat.postMessage", { status: 200, dropResponse: true });
    const err = await errorOf(client(f).chat.postMessage({ channel: "C1", text: "lost ts" }));
    expect(err.code).toBe(ErrorCode.RequestError);
    expect(f.messages("C1").map((m) => m.text)).toEqual(["lost ts"]);
    expect(f.callsTo("chat.postMessage")[0]).toMatchObject({ dropped: true, ok: true });
  });

  it("filesUploadV2 uploads content into a thread", async () => {
    const f = await newFake();
    const c = client(f);
    const parent = await c.chat.postMessage({ channel: "C1", text: "parent" });
    const res = await c.filesUploadV2({
      channel_id: "C1",
      thread_ts: parent.ts as string,
      initial_comment: "full output",
      filename: "output.md",
      title: "Output",
      content: "# long output\n".repeat(100),
    });
    expect(res.ok).toBe(true);
    expect(f.files).toHaveLength(1);
    const file = f.files[0];
    expect(file).toMatchObject({
      channel: "C1",
      thread_ts: parent.ts,
      initial_comment: "full output",
      filename: "output.md",
      title: "Output",
      completed: true,
    });
    expect(file?.content.toString("utf8")).toBe("# long output\n".repeat(100));
    expect(f.calls.map((call) => call.method)).toEqual([
      "chat.postMessage",
      "files.getUploadURLExternal",
      "upload",
      "files.completeUploadExternal",
    ]);
    // Like Slack, the shared file shows up as a message in the thread.
    expect(f.thread("C1", parent.ts as string).map((m) => m.files?.[0]?.name)).toEqual([
      undefined,
      "output.md",
    ]);
  });

  it("waitFor resolves on a later call and times out with context", async () => {
    const f = await newFake();
    const waiting = f.waitForCall("chat.postMessage", (c) => c.args.text === "b", 2000);
    const c = client(f);
    await c.chat.postMessage({ channel: "C1", text: "a" });
    await c.chat.postMessage({ channel: "C1", text: "b" });
    expect((await waiting).args.text).toBe("b");
    await expect(f.waitFor((calls) => calls.length > 10, 50)).rejects.toThrow(/timed out.*chat.postMessage/);
  });
});

describe("fake Slack lifecycle", () => {
  it("close() is idempotent and ends a call held by delayMs", async () => {
    const f = await newFake();
    f.failNext("chat.postMessage", { delayMs: 30_000 });
    const pending = errorOf(client(f).chat.postMessage({ channel: "C1", text: "slow" }));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await Promise.all([f.close(), f.close()]);
    expect((await pending).code).toBe(ErrorCode.RequestError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(f.messages()).toHaveLength(0);
  });

  it("records response_url posts and can fail them", async () => {
    const f = await newFake();
    const ok = await fetch(f.responseUrl("r1"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "a" }),
    });
    expect(ok.status).toBe(200);
    f.failNext("response_url", { status: 404 });
    const gone = await fetch(f.responseUrl("r2"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(gone.status).toBe(404);
    expect(f.responses).toEqual([expect.objectContaining({ id: "r1", body: { text: "a" } })]);
  });
});

describe("Bolt App in HTTP mode against the fake", () => {
  async function startHttpApp(f: FakeSlack): Promise<{ app: App; baseUrl: string; seen: string[] }> {
    const seen: string[] = [];
    const app = new App({
      token: "xoxb-test",
      signingSecret: SIGNING_SECRET,
      clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    apps.push(app);
    app.command("/codex", async ({ command, ack, respond }) => {
      seen.push(`command:${command.text}`);
      await ack();
      await respond({ response_type: "ephemeral", text: `got ${command.text}` });
    });
    app.action("decision.option", async ({ ack, body }) => {
      seen.push(`action:${body.type}`);
      await ack();
    });
    app.view("policy", async ({ ack, view }) => {
      seen.push(`view:${view.private_metadata}`);
      await ack();
    });
    app.message(async ({ message }) => {
      seen.push(`message:${"text" in message ? message.text : ""}`);
    });
    // The constructor fired auth.test; let it finish so that closing the fake cannot reject it unhandled.
    await f.waitForCall("auth.test");
    const server = (await app.start({ port: 0, host: "127.0.0.1" })) as Server;
    const { port } = server.address() as AddressInfo;
    return { app, baseUrl: `http://127.0.0.1:${port}`, seen };
  }

  it("calls auth.test at construction, acks a signed slash command and rejects bad or stale signatures", async () => {
    const f = await newFake();
    const { baseUrl, seen } = await startHttpApp(f);
    // auth.test runs from the constructor (tokenVerificationEnabled defaults to true).
    expect(f.callsTo("auth.test")).toHaveLength(1);

    const body = slashCommandBody({
      text: "help",
      user_id: "U1",
      team_id: "T1",
      channel_id: "C1",
      response_url: f.responseUrl("cmd1"),
    });
    const res = await postSigned(baseUrl, "/slack/events", body, "form", SIGNING_SECRET);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(seen).toEqual(["command:help"]);
    await f.waitFor(() => f.responses.length > 0);
    expect(f.responses[0]).toMatchObject({
      id: "cmd1",
      body: { response_type: "ephemeral", text: "got help" },
    });

    const bad = await postSigned(baseUrl, "/slack/events", body, "form", "wrong-secret");
    expect(bad.status).toBe(401);
    const stale = await postSigned(baseUrl, "/slack/events", body, "form", SIGNING_SECRET, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(stale.status).toBe(401);
    expect(seen).toEqual(["command:help"]);
  });

  it("acks block actions, view submissions and events", async () => {
    const f = await newFake();
    const { baseUrl, seen } = await startHttpApp(f);
    const action = blockActionPayload({
      user: "U1",
      team: "T1",
      channel: "C1",
      message_ts: "1700000000.000100",
      action_id: "decision.option",
      value: "d1:o2",
      response_url: f.responseUrl("act1"),
    });
    expect(
      (await postSigned(baseUrl, "/slack/events", interactionBody(action), "form", SIGNING_SECRET)).status,
    ).toBe(200);

    const view = viewSubmissionPayload({
      user: "U1",
      team: "T1",
      callback_id: "policy",
      private_metadata: "C7",
    });
    expect(
      (await postSigned(baseUrl, "/slack/events", interactionBody(view), "form", SIGNING_SECRET)).status,
    ).toBe(200);

    const ev = eventBody({
      team_id: "T1",
      event: messageEvent({ user: "U1", channel: "C1", text: "hi bot", ts: "1700000001.000100" }),
    });
    expect((await postSigned(baseUrl, "/slack/events", ev, "json", SIGNING_SECRET)).status).toBe(200);
    await expect.poll(() => seen).toEqual(["action:block_actions", "view:C7", "message:hi bot"]);

    // Bolt 5.1 compares the content type exactly: with a charset suffix it parses the form as JSON (400).
    const charset = await postSigned(
      baseUrl,
      "/slack/events",
      interactionBody(action),
      "application/x-www-form-urlencoded; charset=utf-8",
      SIGNING_SECRET,
    );
    expect(charset.status).toBe(400);
  });

  it("signSlackRequest matches Slack's documented example", () => {
    // From Slack's "Verifying requests from Slack" guide.
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const headers = signSlackRequest("8f742231b10e8888abcd99yyyzzz85a5", body, 1531420618);
    expect(headers["x-slack-signature"]).toBe(
      "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    );
    expect(headers["x-slack-request-timestamp"]).toBe("1531420618");
  });
});

describe("Bolt App in Socket Mode against the fake", () => {
  it("connects through apps.connections.open and acks a slash command envelope", async () => {
    const f = await newFake();
    const app = new App({
      token: "xoxb-test",
      appToken: "xapp-test",
      socketMode: true,
      botId: "BBOT",
      botUserId: "UBOT",
      clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    apps.push(app);
    // botId + botUserId given: no auth.test at all.
    expect(f.callsTo("auth.test")).toHaveLength(0);
    const seen: string[] = [];
    app.command("/codex", async ({ command, ack }) => {
      seen.push(command.text);
      await ack({ response_type: "ephemeral", text: `usage for ${command.text}` });
    });
    app.action("decision.option", async ({ ack }) => {
      await ack();
    });
    await app.start();
    expect(f.socket.connected()).toBe(true);
    expect(f.callsTo("apps.connections.open")[0]).toMatchObject({ token: "xapp-test", ok: true });

    const ack = await f.socket.send(
      "slash_commands",
      slashCommandPayload({ text: "bogus", user_id: "U1", team_id: "T1", channel_id: "C1" }),
    );
    expect(seen).toEqual(["bogus"]);
    expect(ack.payload).toEqual({ response_type: "ephemeral", text: "usage for bogus" });

    const emptyAck = await f.socket.send(
      "interactive",
      blockActionPayload({
        user: "U1",
        team: "T1",
        channel: "C1",
        message_ts: "1700000000.000100",
        action_id: "decision.option",
        value: "v",
      }),
    );
    expect(emptyAck.payload).toEqual({});
  });

  it("reconnects after Slack sends a disconnect message", async () => {
    const f = await newFake();
    // An explicit receiver to shorten clientPingTimeout, which also sets the reconnect delay (default 5 s).
    const receiver = new SocketModeReceiver({
      appToken: "xapp-test",
      clientPingTimeout: 1000,
      installerOptions: { clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } } },
      logLevel: LogLevel.ERROR,
    });
    const app = new App({
      token: "xoxb-test",
      receiver,
      botId: "BBOT",
      botUserId: "UBOT",
      clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    apps.push(app);
    await app.start();
    expect(f.socket.connectionsAccepted()).toBe(1);
    f.socket.disconnect("refresh_requested");
    await f.waitFor(() => f.socket.connectionsAccepted() === 2 && f.socket.connected(), 5000);
    expect(f.callsTo("apps.connections.open")).toHaveLength(2);
    const ack = await f.socket.send(
      "events_api",
      eventPayload({
        team_id: "T1",
        event: messageEvent({ user: "U1", channel: "D1", text: "hi", ts: "1700000001.000100" }),
      }),
    );
    expect(ack.payload).toEqual({});
  });
});

describe("fake Slack streams (chat.startStream / appendStream / stopStream)", () => {
  const client = (f: FakeSlack) =>
    new WebClient("xoxb-test", { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } });

  it("records every call on a stream in order with its chunks, and refuses appends once stopped or expired", async () => {
    fake = await startFakeSlack({ streaming: true });
    const web = client(fake);
    const root = await web.chat.postMessage({ channel: "C1", text: "root" });
    await expect(
      web.chat.startStream({ channel: "C1", thread_ts: root.ts as string, markdown_text: "a" }),
    ).rejects.toMatchObject({ data: { error: "missing_recipient_user_id" } });
    const started = await web.chat.startStream({
      channel: "C1",
      thread_ts: root.ts as string,
      recipient_user_id: "U1",
      recipient_team_id: "T0001",
      chunks: [{ type: "task_update", id: "a1", title: "npm test", status: "in_progress" }],
    });
    const ts = started.ts as string;
    await web.chat.appendStream({ channel: "C1", ts, chunks: [{ type: "markdown_text", text: "Hello" }] });
    await web.chat.appendStream({ channel: "C1", ts, markdown_text: " world" });
    await web.chat.stopStream({ channel: "C1", ts });
    await expect(web.chat.appendStream({ channel: "C1", ts, markdown_text: "!" })).rejects.toMatchObject({
      data: { error: "message_not_in_streaming_state" },
    });
    const [stream] = fake.streams;
    expect(stream?.calls.map((c) => c.method)).toEqual([
      "chat.startStream",
      "chat.appendStream",
      "chat.appendStream",
      "chat.stopStream",
    ]);
    expect(stream?.calls[0]?.chunks).toEqual([
      { type: "task_update", id: "a1", title: "npm test", status: "in_progress" },
    ]);
    expect(stream?.state).toBe("stopped");
    expect(fake.thread("C1", root.ts as string).at(-1)?.text).toBe("Hello world");

    const other = await web.chat.startStream({ channel: "D1", markdown_text: "x" }); // a DM needs no recipient
    fake.expireStreams();
    await expect(
      web.chat.appendStream({ channel: "D1", ts: other.ts as string, markdown_text: "y" }),
    ).rejects.toMatchObject({ data: { error: "message_not_in_streaming_state" } });
  });

  it("refuses streams by default and on demand, and rate-limits a method with Retry-After", async () => {
    fake = await startFakeSlack();
    const web = new WebClient("xoxb-test", {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    await expect(web.chat.startStream({ channel: "D1", markdown_text: "x" })).rejects.toMatchObject({
      data: { error: "feature_not_enabled" },
    });
    fake.refuseStreaming(undefined);
    const { ts } = await web.chat.startStream({ channel: "D1", markdown_text: "x" });
    fake.failNext("chat.appendStream", { status: 429, retryAfter: 7 });
    await expect(
      web.chat.appendStream({ channel: "D1", ts: ts as string, markdown_text: "y" }),
    ).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
    fake.refuseStreaming("not_allowed");
    await expect(web.chat.startStream({ channel: "D1", markdown_text: "x" })).rejects.toMatchObject({
      data: { error: "not_allowed" },
    });
  });
});
