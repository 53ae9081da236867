import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceiverEvent } from "@slack/bolt";
import { redactAcks } from "../../src/bot/receiver/ackRedaction.js";
import { redactingFetch } from "../../src/bot/redactingSlack.js";
import { clearRegisteredSecrets, registerSecrets } from "../../src/redaction.js";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { hides, OWN_BOT_TOKEN, OWN_SIGNING_SECRET, textWithSecret } from "../support/secrets.js";

// The posting choke point: the fetch under every WebClient and Bolt's respond(), against the fake
// Slack Web API. Whatever a caller forgot to redact is redacted on the wire.
describe("the redacting fetch under the Web API client", () => {
  let slack: FakeSlack;
  let client: WebClient;
  const fetchFn = redactingFetch();
  let responses = 0;

  beforeAll(async () => {
    registerSecrets([OWN_BOT_TOKEN, OWN_SIGNING_SECRET]);
    slack = await startFakeSlack({ teamId: "T0001" });
    client = new WebClient(OWN_BOT_TOKEN, {
      slackApiUrl: slack.apiUrl,
      fetch: fetchFn,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(async () => {
    clearRegisteredSecrets();
    await slack.close();
  });

  /** Everything the fake Slack received as content: call arguments, uploaded files, response-URL bodies. */
  const received = (): string =>
    JSON.stringify({
      calls: slack.calls.map((c) => c.args),
      files: slack.files.map((f) => ({ ...f, content: f.content.toString("utf8") })),
      responses: slack.responses,
    });

  /** Posts `text` every way the bot posts content. */
  async function postEveryWay(text: string): Promise<void> {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text } }];
    const posted = await client.chat.postMessage({ channel: "C1", text, blocks });
    await client.chat.update({ channel: "C1", ts: posted.ts as string, text, blocks });
    await client.chat.postEphemeral({ channel: "C1", user: "U1", text, blocks });
    await client.views.publish({ user_id: "U1", view: { type: "home", blocks } });
    await client.views.open({
      trigger_id: "trigger",
      view: { type: "modal", title: { type: "plain_text", text: "T" }, blocks },
    });
    await client.filesUploadV2({ channel_id: "C1", filename: "answer.md", title: "answer", content: text });
    // Bolt's respond(): a JSON POST to the response URL through the same fetch.
    const res = await fetchFn(slack.responseUrl(`r${++responses}`), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text, blocks }),
    });
    expect(res.ok).toBe(true);
  }

  it("delivers ordinary text untouched by every way of posting (positive control)", async () => {
    const text = "Résumé : 3 fichiers <changés> & `task-list` OK — CANARY5521";
    await postEveryWay(text);
    const all = received();
    for (const method of [
      "chat.postMessage",
      "chat.update",
      "chat.postEphemeral",
      "views.publish",
      "views.open",
      "files.completeUploadExternal",
    ]) {
      expect(slack.callsTo(method).length, method).toBeGreaterThan(0);
    }
    expect(all.split("CANARY5521").length - 1).toBeGreaterThanOrEqual(12);
    expect(slack.files.at(-1)?.content.toString("utf8")).toBe(text);
    expect(slack.responses.at(-1)?.body).toMatchObject({ text });
  });

  it("never delivers a secret: messages, edits, ephemerals, App Home, modals, files and response URLs", async () => {
    await fc.assert(
      fc.asyncProperty(textWithSecret(), async ({ secret, text }) => {
        await postEveryWay(text);
        return hides(received(), secret);
      }),
      { numRuns: 25 },
    );
  });

  it("still sends an explicit token field to Slack: it is the credential, not content", async () => {
    const res = await client.auth.test({ token: OWN_BOT_TOKEN });
    expect(res.ok).toBe(true);
    expect(slack.callsTo("auth.test").at(-1)?.token).toBe(OWN_BOT_TOKEN);
  });
});

describe("redactAcks", () => {
  beforeAll(() => registerSecrets([OWN_BOT_TOKEN]));
  afterAll(() => clearRegisteredSecrets());

  it("every ack body a listener sends passes the redactor; an empty ack stays empty", async () => {
    const sent: unknown[] = [];
    // The receivers' side of Bolt: they call app.processEvent with an ack that answers Slack.
    const listeners = {
      processEvent: async (event: ReceiverEvent) =>
        void (await event.ack({
          response_action: "errors",
          errors: { plan: `cible inconnue : ${OWN_BOT_TOKEN} / xoxb-1234567890-1234567890123-AbCdEfGhIjKl` },
        })),
    };
    const app = { processEvent: redactAcks.wrap((e) => listeners.processEvent(e)) };
    await app.processEvent({ body: {}, ack: async (response?: unknown) => void sent.push(response) });
    expect(sent).toEqual([
      { response_action: "errors", errors: { plan: "cible inconnue : [redacted] / xoxb-[redacted]" } },
    ]);

    const emptyAck = async (event: ReceiverEvent) => void (await event.ack());
    const empty = { processEvent: redactAcks.wrap(emptyAck) };
    await empty.processEvent({ body: {}, ack: async (response?: unknown) => void sent.push(response) });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBeUndefined();
  });
});

describe("Web API clients", () => {
  it("every client codexpi builds uses the redacting options (its fetch is the posting choke point)", () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory()
            ? files(path.join(dir, e.name))
            : e.name.endsWith(".ts")
              ? [path.join(dir, e.name)]
              : [],
        );
    const constructions = files(path.resolve("src")).flatMap((f) =>
      [...fs.readFileSync(f, "utf8").matchAll(/new WebClient\(([^;]*)/g)].map((m) => ({
        f,
        args: m[1] as string,
      })),
    );
    expect(constructions.length).toBeGreaterThan(0);
    // (The second argument, where there is one, counts the process's Slack calls for /metrics.)
    for (const c of constructions) expect(c.args, c.f).toMatch(/webClientOptions\(config(, \w+)?\)/);
    // Bolt builds its own clients (and respond()) from clientOptions: the App gets the same options.
    expect(fs.readFileSync(path.resolve("src/bot/app.ts"), "utf8")).toMatch(
      /clientOptions: webClientOptions\(config(, \w+)?\)/,
    );
  });
});
