import { describe, expect, it } from "vitest";
import { PendingAcks } from "../../src/bot/pendingAcks.js";
import { silentLogger } from "../../src/logger.js";

/** A response URL's poster that records what it was sent. */
const responder = () => {
  const sent: unknown[] = [];
  const respond = async (body: unknown) => {
    sent.push(body);
  };
  return { sent, respond: respond as never };
};
const flush = () => new Promise((r) => setImmediate(r));

describe("acknowledgements waiting for their root", () => {
  it("S-QUIET-01: the ack is deleted whichever comes first, the ack or the root; an ack whose root never comes stays", async () => {
    const acks = new PendingAcks(silentLogger);
    const first = responder();
    acks.sent("c1", first.respond);
    await flush();
    expect(first.sent).toEqual([]); // positive control: nothing before the root
    acks.rootPosted("c1");
    await flush();
    expect(first.sent).toEqual([{ delete_original: true }]);

    const late = responder();
    acks.rootPosted("c2");
    acks.sent("c2", late.respond);
    await flush();
    expect(late.sent).toEqual([{ delete_original: true }]);

    const other = responder();
    acks.sent("c3", other.respond);
    acks.rootPosted("c4");
    await flush();
    expect(other.sent).toEqual([]);
  });

  it("forgets an ack after the response URL's 30 minutes", async () => {
    let now = 0;
    const acks = new PendingAcks(silentLogger, () => now);
    const old = responder();
    acks.sent("c1", old.respond);
    now = 31 * 60_000;
    acks.rootPosted("c1");
    await flush();
    expect(old.sent).toEqual([]);
  });
});
