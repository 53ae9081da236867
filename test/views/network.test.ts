import { describe, expect, it } from "vitest";
import { expandHostArgs } from "../../src/engine/network/index.js";
import { projectsView } from "../../src/views/commands.js";
import { hostsChangeText, networkFact, networkSetText } from "../../src/views/network.js";

// What Slack says of a project's network: one sentence per answer, entries as code spans, the list
// clipped, safe as mrkdwn.

const hosts = (...args: string[]) => expandHostArgs(args);

describe("network views", () => {
  it("says each mode in both languages; an empty allowlist says how to add hosts", () => {
    expect(networkSetText("en", "demo", { mode: "off", hosts: hosts("npm") })).toBe(
      "Project *demo*: its agents have no network now.",
    );
    expect(networkSetText("fr", "demo", { mode: "allowlist", hosts: hosts("example.com:8080") })).toBe(
      "Projet *demo* : ses agents ne joignent plus que les hôtes listés : `example.com:8080`.",
    );
    expect(networkSetText("en", "demo", { mode: "allowlist", hosts: [] })).toContain(
      "`/codex project allow-host demo npm`",
    );
    expect(networkSetText("en", "demo", { mode: "open", hosts: [] })).toContain("any public host");
  });

  it("a change names what changed and the list; outside allowlist mode, that the list waits", () => {
    const network = { mode: "allowlist" as const, hosts: hosts("pypi") };
    expect(hostsChangeText("en", { name: "demo", network, changed: hosts("pypi.org") }, true)).toBe(
      "Project *demo*: added `pypi.org`. Hosts listed: `pypi.org`, `files.pythonhosted.org`.",
    );
    expect(hostsChangeText("en", { name: "demo", network, changed: [] }, true)).toContain("already listed");
    expect(
      hostsChangeText("en", { name: "demo", network: { mode: "allowlist", hosts: [] }, changed: [] }, false),
    ).toContain("Hosts listed: none (no network).");
    const off = hostsChangeText(
      "fr",
      { name: "demo", network: { ...network, mode: "off" }, changed: [] },
      false,
    );
    expect(off.split("\n")).toHaveLength(2);
    expect(off).toContain("est en mode off");
  });

  it("/codex projects shows the network only when given (admins and the owner), a long list clipped", () => {
    const item = {
      name: "demo",
      path: "/srv/demo",
      ownerId: "U1",
      fullAccess: false,
      mergeConfirmation: false,
      channelId: null,
      role: "project" as const,
    };
    const many = Array.from({ length: 200 }, (_, i) => `host-${i}.example.com`);
    const shown = JSON.stringify(
      projectsView("en", [
        { ...item, network: { mode: "allowlist", hosts: hosts(...many) } },
        { ...item, name: "quiet" },
      ]),
    );
    expect(shown).toContain("network: `host-0.example.com`");
    expect(shown).not.toContain("host-199.example.com");
    expect(shown.match(/network/g)).toHaveLength(1);
    expect(networkFact("en", { mode: "allowlist", hosts: [] })).toBe("network: no host listed");
    expect(networkFact("fr", { mode: "open", hosts: [] })).toBe("réseau ouvert");
  });
});
