import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
