import { describe, it, expect } from "vitest";
import { multiServe, LEASE_SECONDS } from "./shared.js";

describe("several serve instances on one PostgreSQL", () => {
  const { open, holder, ownedBy, takenBy } = multiServe();

  it("a coordinator that died on another machine is replaced only once its lease has expired, and then within a tick", async () => {
    const s = await open();
    const env = { CODEXPI_LEASE_SECONDS: String(LEASE_SECONDS) };
    await s.start(env);
    const b = await s.another(env);
    expect(await holder()).toMatch(ownedBy(s.pid));
    // The holder's id names another host: nothing here can prove it dead (as for a coordinator on
    // another machine); it stops renewing (its own id no longer matches) and is killed.
    const lease = await s.db
      .updateTable("leases")
      .set({ owner: "another-machine:4242:1:abcdef" })
      .where("name", "=", "coordinator")
      .returning("expires_at")
      .executeTakeFirstOrThrow();
    const killedAt = Date.now();
    await s.kill();
    await takenBy(b.pid, LEASE_SECONDS * 1000 + 5_000);
    const takenAt = Date.now();
    console.log(
      `coordinator on "another machine" gone → lease taken ${takenAt - killedAt} ms later (${takenAt - lease.expires_at} ms after it expired)`,
    );
    expect(takenAt).toBeGreaterThanOrEqual(lease.expires_at); // not before the expiry
    expect(takenAt - lease.expires_at).toBeLessThan(3_000); // the next tick (every second) took it
  }, 60_000);
});
