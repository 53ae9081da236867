import fs from "node:fs";
import path from "node:path";
import type { App, Receiver, ReceiverEvent } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { ComposedReceiver } from "../../src/bot/receiver/composed.js";
import type { ReceiverLayer } from "../../src/bot/receiver/layer.js";
import { propertyAssignments, tsFilesUnder } from "../support/sourceScan.js";

/** What Bolt's receivers call: the composed receiver (src/bot/receiver/) stands in front of both. */
const BOLT_ENTRY_POINTS = ["processEvent", "requestListener"];

// Signature check, intake, in-flight count and ack redaction are layers of one Receiver, Bolt's
// extension point, in a fixed order; a patch of Bolt's internals would slip past that order.
describe("no patch of Bolt's internals in the bot", () => {
  it("no file under src/bot assigns to processEvent or requestListener", () => {
    const found = tsFilesUnder("src/bot").flatMap((file) =>
      propertyAssignments(fs.readFileSync(file, "utf8"), BOLT_ENTRY_POINTS).map(
        (line) => `${path.relative(".", file)}:${line}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("positive control: the scanner flags each patch in a fixture, not comments, strings, literals or reads", () => {
    const fixture = fs.readFileSync(path.resolve("test/bot/fixtures/patches.ts.txt"), "utf8");
    expect(propertyAssignments(fixture, BOLT_ENTRY_POINTS)).toEqual([4, 8, 10, 11, 12, 13, 14, 15]);
  });
});

describe("the composed receiver", () => {
  it("passes each request through its layers in order, then the app; starts them before the transport, stops them after", async () => {
    const seen: string[] = [];
    const layer = (name: string): ReceiverLayer => ({
      wrap: (next) => async (event) => {
        seen.push(name);
        await next(event);
      },
      start: async () => void seen.push(`start ${name}`),
      stop: () => void seen.push(`stop ${name}`),
    });
    // A stand-in for Bolt's receivers: it hands each request to what it was given as the app.
    let entry: Pick<App, "processEvent"> | null = null;
    const transport: Receiver = {
      init: (app) => {
        entry = app;
      },
      start: async () => void seen.push("start transport"),
      stop: async () => void seen.push("stop transport"),
    };
    const app = { processEvent: async () => void seen.push("app") } as unknown as App;
    const receiver = new ComposedReceiver(transport, [
      layer("intake"),
      layer("in flight"),
      layer("redaction"),
    ]);
    receiver.init(app);
    await receiver.start();
    await entry!.processEvent({ body: {}, ack: async () => undefined } as ReceiverEvent);
    await receiver.stop();
    expect(seen).toEqual([
      "start intake",
      "start in flight",
      "start redaction",
      "start transport",
      "intake",
      "in flight",
      "redaction",
      "app",
      "stop transport",
      "stop redaction",
      "stop in flight",
      "stop intake",
    ]);
  });
});
