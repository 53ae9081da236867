import { describe, expect, it } from "vitest";
import { CronError, isTimeZone, nextFire, parseCron } from "../../../src/engine/schedules/cron.js";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const next = (cron: string, tz: string, after: string) => iso(nextFire(parseCron(cron), tz, at(after)));

describe("the schedules' cron (S-SCHED-01)", () => {
  it("S-SCHED-01: every minute fires at the next whole minute, strictly after", () => {
    expect(next("* * * * *", "UTC", "2026-12-02T10:00:00Z")).toBe("2026-12-02T10:01:00.000Z");
    expect(next("* * * * *", "UTC", "2026-12-02T10:00:59.999Z")).toBe("2026-12-02T10:01:00.000Z");
  });

  it("S-SCHED-01: steps, ranges, lists and names", () => {
    expect(next("*/15 * * * *", "UTC", "2026-12-02T10:01:00Z")).toBe("2026-12-02T10:15:00.000Z");
    expect(next("5,35 9-10 * * *", "UTC", "2026-12-02T10:40:00Z")).toBe("2026-12-03T09:05:00.000Z");
    expect(next("0 9 * * mon-fri", "UTC", "2026-12-04T09:00:00Z")).toBe("2026-12-07T09:00:00.000Z"); // Fri → Mon
    expect(next("0 0 1 jan *", "UTC", "2026-12-02T00:00:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("0 12 * * 7", "UTC", "2026-12-02T00:00:00Z")).toBe("2026-12-06T12:00:00.000Z"); // 7 is Sunday
    expect(next("@daily", "UTC", "2026-12-02T00:00:00Z")).toBe("2026-12-03T00:00:00.000Z");
  });

  it("S-SCHED-01: day of month and day of week both restricted match either (as cron does)", () => {
    // 2026-12-02 is a Wednesday: the 15th or a Friday, whichever comes first.
    expect(next("0 8 15 * fri", "UTC", "2026-12-02T00:00:00Z")).toBe("2026-12-04T08:00:00.000Z");
  });

  it("S-SCHED-01: the wall clock of the schedule's zone, across a DST change", () => {
    // 9:00 in Paris is 08:00 UTC in winter, 07:00 UTC in summer.
    expect(next("0 9 * * *", "Europe/Paris", "2026-12-02T10:00:00Z")).toBe("2026-12-03T08:00:00.000Z");
    expect(next("0 9 * * *", "Europe/Paris", "2026-07-01T10:00:00Z")).toBe("2026-07-02T07:00:00.000Z");
    // Spring forward in Paris (29 March 2026): 02:30 does not exist that day, the next is the 30th.
    expect(next("30 2 * * *", "Europe/Paris", "2026-03-28T12:00:00Z")).toBe("2026-03-30T00:30:00.000Z");
    // Fall back in New York (1 November 2026): midnight of the 1st is still EDT, of the 2nd EST.
    expect(next("0 0 * * *", "America/New_York", "2026-11-01T03:00:00Z")).toBe("2026-11-01T04:00:00.000Z");
    expect(next("0 0 * * *", "America/New_York", "2026-11-01T04:00:00Z")).toBe("2026-11-02T05:00:00.000Z");
  });

  it("S-SCHED-01: an impossible date never fires; malformed input is refused with what is wrong", () => {
    expect(nextFire(parseCron("0 0 30 2 *"), "UTC", at("2026-01-01T00:00:00Z"))).toBeNull();
    for (const bad of [
      "* * * *",
      "60 * * * *",
      "* 24 * * *",
      "*/0 * * * *",
      "5-1 * * * *",
      "* * * foo *",
      "",
    ])
      expect(() => parseCron(bad), bad).toThrow(CronError);
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
