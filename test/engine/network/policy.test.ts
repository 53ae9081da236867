import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EngineError } from "../../../src/engine/errors.js";
import {
  type NetworkPolicy,
  NETWORK_PRESETS,
  expandHostArgs,
  formatHostEntry,
  isPrivateAddress,
  isPrivateEntry,
  matchHost,
  parseHostEntry,
  projectNetwork,
  hostsColumn,
} from "../../../src/engine/network/index.js";

const reasonOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof EngineError ? `${err.code}/${err.reason}` : String(err);
  }
};

const allowlist = (...entries: string[]): NetworkPolicy => ({
  mode: "allowlist",
  hosts: entries.map(parseHostEntry),
});

describe("parseHostEntry", () => {
  it("reads names, wildcards, ports and IP literals, lower-cased and without a trailing dot", () => {
    expect(parseHostEntry("registry.npmjs.org")).toEqual({ host: "registry.npmjs.org", port: null });
    expect(parseHostEntry("  GitHub.COM.  ")).toEqual({ host: "github.com", port: null });
    expect(parseHostEntry("*.example.com")).toEqual({ host: "*.example.com", port: null });
    expect(parseHostEntry("example.com:8080")).toEqual({ host: "example.com", port: 8080 });
    expect(parseHostEntry("10.0.0.5:5432")).toEqual({ host: "10.0.0.5", port: 5432 });
    expect(parseHostEntry("[FD00::0001]:443")).toEqual({ host: "fd00::1", port: 443 });
    expect(parseHostEntry("0:0:0:0:0:0:0:1")).toEqual({ host: "::1", port: null });
    expect(parseHostEntry("localhost:4873")).toEqual({ host: "localhost", port: 4873 });
    expect(parseHostEntry("bücher.example")).toEqual({ host: "xn--bcher-kva.example", port: null });
  });

  it("reduces a URL with a scheme to its host and the port typed, and no more", () => {
    expect(parseHostEntry("https://registry.npmjs.org/")).toEqual({ host: "registry.npmjs.org", port: null });
    expect(parseHostEntry("https://registry.npmjs.org")).toEqual({ host: "registry.npmjs.org", port: null });
    expect(parseHostEntry("http://127.0.0.1:4873")).toEqual({ host: "127.0.0.1", port: 4873 });
    expect(parseHostEntry("https://example.com:443/")).toEqual({ host: "example.com", port: 443 });
    expect(parseHostEntry("https://[::1]:8443")).toEqual({ host: "::1", port: 8443 });
  });

  it("refuses paths, users, queries, empty or over-long names, bad ports and non-canonical addresses", () => {
    const bad = [
      "",
      "   ",
      "example.com/path",
      "https://example.com/simple/",
      "https://user:pw@example.com",
      "user@example.com",
      "https://example.com?x=1",
      "example.com#frag",
      "exa mple.com",
      "*",
      "*.",
      "*.*.example.com",
      "foo.*.com",
      "-bad.example.com",
      "a..b",
      `${"a".repeat(64)}.com`,
      `${"abcdefghi.".repeat(26)}com`, // 263 characters
      "127.1",
      "0177.0.0.1",
      "0x7f.0.0.1",
      "1.2.3.256",
      "fe80::1%eth0",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "[::1",
      "example.com:",
      "example.com:http",
      "example.com:1:2",
      "file:///etc/passwd",
    ];
    for (const text of bad)
      expect(
        reasonOf(() => parseHostEntry(text)),
        text,
      ).toBe("invalid/network_host_invalid");
    for (const text of ["example.com:0", "example.com:65536", "example.com:99999"])
      expect(
        reasonOf(() => parseHostEntry(text)),
        text,
      ).toBe("invalid/network_port_invalid");
    // Positive control: the longest name DNS carries is accepted.
    const longest = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    expect(longest).toHaveLength(253);
    expect(parseHostEntry(longest).host).toBe(longest);
  });

  it("formatHostEntry writes what parseHostEntry reads back to the same entry", () => {
    for (const text of [
      "example.com",
      "*.example.com",
      "example.com:8080",
      "10.1.2.3",
      "[fd00::1]:443",
      "::1",
    ])
      expect(parseHostEntry(formatHostEntry(parseHostEntry(text)))).toEqual(parseHostEntry(text));
    expect(formatHostEntry({ host: "fd00::1", port: 443 })).toBe("[fd00::1]:443");
    expect(formatHostEntry({ host: "example.com", port: null })).toBe("example.com");
  });

  it("property: every entry it accepts formats and reads back unchanged", () => {
    const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
    const name = fc
      .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-z]{2,6}$/))
      .map(([labels, tld]) => [...labels, tld].join("."));
    const host = fc.oneof(
      name,
      name.map((n) => `*.${n}`),
      fc.ipV4(),
      fc.ipV6(),
    );
    const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: null });
    fc.assert(
      fc.property(host, port, (h, p) => {
        const text = formatHostEntry({ host: h, port: p });
        const once = parseHostEntry(text);
        expect(parseHostEntry(formatHostEntry(once))).toEqual(once);
        expect(once.port).toBe(p);
      }),
    );
  });

  it("property: whatever the text, it either gives an entry or throws EngineError invalid", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const reason = reasonOf(() => parseHostEntry(text));
        expect(reason === null || reason.startsWith("invalid/network_")).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("matchHost", () => {
  it("off matches nothing, open matches any host with a synthetic entry", () => {
    expect(matchHost({ mode: "off", hosts: [parseHostEntry("example.com")] }, "example.com", 443)).toBeNull();
    expect(matchHost({ mode: "open", hosts: [] }, "Example.COM.", 8080)).toEqual({
      host: "example.com",
      port: 8080,
    });
    expect(matchHost({ mode: "open", hosts: [] }, "[::1]", 22)).toEqual({ host: "::1", port: 22 });
  });

  it("an empty allowlist is no network", () => {
    expect(matchHost(allowlist(), "registry.npmjs.org", 443)).toBeNull();
  });

  it("an entry without a port matches 80 and 443 only; with a port, that port only", () => {
    const policy = allowlist("registry.npmjs.org", "127.0.0.1:4873");
    expect(matchHost(policy, "registry.npmjs.org", 443)).toEqual({ host: "registry.npmjs.org", port: null });
    expect(matchHost(policy, "registry.npmjs.org", 80)).not.toBeNull();
    expect(matchHost(policy, "registry.npmjs.org", 22)).toBeNull();
    expect(matchHost(policy, "127.0.0.1", 4873)).toEqual({ host: "127.0.0.1", port: 4873 });
    expect(matchHost(policy, "127.0.0.1", 443)).toBeNull();
  });

  it("names compare lower-case without the trailing dot; a wildcard matches subdomains, never the domain itself", () => {
    const policy = allowlist("*.example.com", "github.com");
    expect(matchHost(policy, "GitHub.com.", 443)?.host).toBe("github.com");
    expect(matchHost(policy, "api.example.com", 443)?.host).toBe("*.example.com");
    expect(matchHost(policy, "a.b.example.com", 443)?.host).toBe("*.example.com");
    expect(matchHost(policy, "example.com", 443)).toBeNull();
    expect(matchHost(policy, "evilexample.com", 443)).toBeNull();
    expect(matchHost(policy, "example.com.evil.net", 443)).toBeNull();
    expect(matchHost(policy, "api.github.com", 443)).toBeNull();
  });

  it("IP literals match the identical address only, however it is spelled", () => {
    const policy = allowlist("[fd00::1]:8080", "10.0.0.5");
    expect(matchHost(policy, "fd00:0:0:0:0:0:0:1", 8080)?.host).toBe("fd00::1");
    expect(matchHost(policy, "[FD00::1]", 8080)?.host).toBe("fd00::1");
    expect(matchHost(policy, "10.0.0.5", 443)?.host).toBe("10.0.0.5");
    expect(matchHost(policy, "10.0.0.6", 443)).toBeNull();
    // 167772165 and 10.5 resolve to 10.0.0.5 on some resolvers: never an IP spelling of an entry.
    expect(matchHost(policy, "167772165", 443)).toBeNull();
    expect(matchHost(policy, "10.5", 443)).toBeNull();
  });

  it("a host or port that is none is matched by nothing, even open", () => {
    const open: NetworkPolicy = { mode: "open", hosts: [] };
    for (const host of ["", "exa mple.com", "a/b", "127.1"])
      expect(matchHost(open, host, 443), host).toBeNull();
    expect(matchHost(open, "example.com", 0)).toBeNull();
    expect(matchHost(open, "example.com", 70000)).toBeNull();
  });

  it("property: a listed name always matches itself on 443, and a sibling name never does", () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    fc.assert(
      fc.property(label, label, label, (a, b, tld) => {
        const policy = allowlist(`${a}.${tld}x`);
        expect(matchHost(policy, `${a}.${tld}x`, 443)).not.toBeNull();
        if (a !== b) expect(matchHost(policy, `${b}.${tld}x`, 443)).toBeNull();
      }),
    );
  });
});

describe("isPrivateAddress", () => {
  it("says true for every address that is not the public internet", () => {
    const privateOnes = [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.127.255.255",
      "0.0.0.0",
      "0.1.2.3",
      "224.0.0.1",
      "239.255.255.250",
      "255.255.255.255",
      "240.0.0.1",
      "::",
      "::1",
      "[::1]",
      "fe80::1",
      "febf::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "::127.0.0.1",
      "64:ff9b::a00:1",
      "2002:7f00:1::",
      "2001:db8::1",
    ];
    for (const ip of privateOnes) expect(isPrivateAddress(ip), ip).toBe(true);
  });

  it("says false for public addresses, edges of the ranges included, and for what is no address", () => {
    const publicOnes = [
      "8.8.8.8",
      "1.1.1.1",
      "172.15.255.255",
      "172.32.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "169.253.255.255",
      "11.0.0.0",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "2002:808:808::",
      "fe00::1",
      "example.com",
      "localhost",
      "",
      "127.1",
    ];
    for (const ip of publicOnes) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("property: an IPv4 address and its IPv4-mapped IPv6 form are the same verdict", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isPrivateAddress(`::ffff:${ip}`)).toBe(isPrivateAddress(ip));
      }),
    );
  });
});

describe("isPrivateEntry", () => {
  it("is a private IP literal, localhost or a *.localhost name; public names and addresses are not", () => {
    for (const text of [
      "127.0.0.1:4873",
      "10.0.0.5",
      "[::1]",
      "localhost",
      "api.localhost",
      "*.localhost",
      "169.254.169.254",
    ])
      expect(isPrivateEntry(parseHostEntry(text)), text).toBe(true);
    for (const text of ["registry.npmjs.org", "8.8.8.8", "*.example.com", "localhost.example.com"])
      expect(isPrivateEntry(parseHostEntry(text)), text).toBe(false);
  });
});

describe("presets and arguments", () => {
  it("each preset names the registries its tool really reaches, every one a valid public entry", () => {
    expect(NETWORK_PRESETS.npm).toContain("registry.npmjs.org");
    expect(NETWORK_PRESETS.pypi).toEqual(["pypi.org", "files.pythonhosted.org"]);
    expect(NETWORK_PRESETS.crates).toEqual(["crates.io", "index.crates.io", "static.crates.io"]);
    expect(NETWORK_PRESETS.github).toEqual([
      "github.com",
      "api.github.com",
      "codeload.github.com",
      "objects.githubusercontent.com",
      "raw.githubusercontent.com",
    ]);
    expect(NETWORK_PRESETS.debian).toEqual(["deb.debian.org", "security.debian.org"]);
    for (const hosts of Object.values(NETWORK_PRESETS))
      for (const host of hosts) {
        const entry = parseHostEntry(host);
        expect(formatHostEntry(entry)).toBe(host);
        expect(isPrivateEntry(entry)).toBe(false);
      }
  });

  it("expandHostArgs takes presets (any case), entries and comma lists, each entry once, in order", () => {
    expect(expandHostArgs(["PyPI", "example.com:8080,pypi.org", "npm"]).map(formatHostEntry)).toEqual([
      "pypi.org",
      "files.pythonhosted.org",
      "example.com:8080",
      ...NETWORK_PRESETS.npm!,
    ]);
    expect(reasonOf(() => expandHostArgs(["npm", "not a host"]))).toBe("invalid/network_host_invalid");
    expect(expandHostArgs([])).toEqual([]);
    // A name shaped like a prototype key is an entry, never a lookup of one.
    expect(expandHostArgs(["constructor"])).toEqual([{ host: "constructor", port: null }]);
  });
});

describe("a project's stored policy", () => {
  it("reads back what hostsColumn wrote; an unknown mode is off and unreadable entries are left out", () => {
    const hosts = expandHostArgs(["github", "10.0.0.5:5432"]);
    expect(projectNetwork({ network_mode: "allowlist", network_hosts: hostsColumn(hosts) })).toEqual({
      mode: "allowlist",
      hosts,
    });
    expect(projectNetwork({ network_mode: "wide-open", network_hosts: "[]" }).mode).toBe("off");
    expect(projectNetwork({ network_mode: "open", network_hosts: "not json" })).toEqual({
      mode: "open",
      hosts: [],
    });
    expect(
      projectNetwork({ network_mode: "allowlist", network_hosts: '["ok.example", "bad host", 7, {"x":1}]' })
        .hosts,
    ).toEqual([{ host: "ok.example", port: null }]);
  });
});
