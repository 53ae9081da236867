import { describe, expect, it } from "vitest";
import { runShutdown } from "../../src/bot/shutdown.js";

describe("shutdown", () => {
  it("runs every step even when one throws and one hangs, each bounded, logs both and reports failure", async () => {
    const ran: string[] = [];
    const errors: Array<{ step: string }> = [];
    const logger = { error: (obj: { step: string }) => errors.push(obj) };
    const started = Date.now();
    const clean = await runShutdown(
      [
        { name: "notifier", run: () => ran.push("notifier") },
        {
          name: "ticker",
          run: () => {
            throw new Error("attempt to write a readonly database");
          },
        },
        { name: "slack", run: () => new Promise(() => undefined) },
        { name: "database", run: async () => ran.push("database") },
      ],
      logger as never,
      200,
    );
    expect(clean).toBe(false);
    expect(ran).toEqual(["notifier", "database"]);
    expect(errors.map((e) => e.step)).toEqual(["ticker", "slack"]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("reports a clean shutdown when every step ends", async () => {
    expect(
      await runShutdown([{ name: "a", run: async () => undefined }], { error: () => undefined } as never),
    ).toBe(true);
  });
});
