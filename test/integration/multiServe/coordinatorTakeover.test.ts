import { describe, it, expect } from "vitest";
import { eventually } from "../../support/slackBot.js";
import { multiServe, pause, LEASE_SECONDS } from "./shared.js";

describe("several serve instances on one PostgreSQL", () => {
  const { open, holder, ownedBy, takenBy, roots, said } = multiServe();

  it("the other serve takes over after the coordinator's SIGKILL, and answers from then on", async () => {
    const s = await open();
    s.model.enqueue(
      { kind: "text", text: "avant la reprise 7104" },
      { kind: "text", text: "après la reprise 7103" },
    );
    const env = { CODEXPI_LEASE_SECONDS: String(LEASE_SECONDS) };
    await s.start(env);
    const b = await s.another(env);
    expect(await holder()).toMatch(ownedBy(s.pid)); // the first one started is the coordinator
    // Positive control: the coordinator answers before it dies.
    await s.command("ask demo hello");
    await eventually(() => said("avant la reprise 7104")[0], 60_000, "the answer before the takeover");

    // The coordinator dies: the other instance takes the lease (same host: its holder is provably
    // dead, so at its next tick; at most the lease time otherwise) and notifies from then on.
    const killedAt = Date.now();
    await s.kill();
    await takenBy(b.pid, LEASE_SECONDS * 1000 + 3_000);
    const takeoverMs = Date.now() - killedAt;
    console.log(`coordinator SIGKILLed → lease taken by the other serve in ${takeoverMs} ms`);
    expect(takeoverMs).toBeLessThan(LEASE_SECONDS * 1000);
    await b.command("ask demo again");
    await eventually(() => said("après la reprise 7103")[0], 60_000, "the answer after the takeover");
    await pause(1_500);
    expect(said("après la reprise 7103")).toHaveLength(1);
    expect(roots()).toHaveLength(2);
  }, 120_000);
});
