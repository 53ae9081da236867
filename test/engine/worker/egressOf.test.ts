/** How a turn reaches out, for each network mode and sandbox: the table the jail is built from. */
import { describe, expect, it } from "vitest";
import { egressOf } from "../../../src/engine/worker/turnServices.js";

const hosts = [{ host: "registry.npmjs.org", port: null }];

describe("a turn's way out", () => {
  it("is the proxy for a list of hosts, nothing for an empty list or off, a route only for a full-access turn of an open project", () => {
    const table = (["restricted", "full_access"] as const).map((sandbox) => [
      egressOf({ sandbox, policy: { mode: "off", hosts } }),
      egressOf({ sandbox, policy: { mode: "allowlist", hosts: [] } }),
      egressOf({ sandbox, policy: { mode: "allowlist", hosts } }),
      egressOf({ sandbox, policy: { mode: "open", hosts: [] } }),
    ]);
    expect(table).toEqual([
      ["none", "none", "proxy", "proxy"],
      ["none", "none", "proxy", "route"],
    ]);
  });
});
