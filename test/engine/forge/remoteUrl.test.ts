import { describe, expect, it } from "vitest";
import { forgeFromRemote, remoteTransport } from "../../../src/engine/forge/index.js";

describe("a forge derived from a remote's URL", () => {
  it.each([
    ["https://github.com/acme/widgets.git", "github", "https://api.github.com", "acme/widgets"],
    ["https://github.com/acme/widgets", "github", "https://api.github.com", "acme/widgets"],
    ["https://user@github.com/acme/widgets.git/", "github", "https://api.github.com", "acme/widgets"],
    ["git@github.com:acme/widgets.git", "github", "https://api.github.com", "acme/widgets"],
    ["ssh://git@github.com/acme/widgets.git", "github", "https://api.github.com", "acme/widgets"],
    ["ssh://git@github.com:22/acme/widgets.git", "github", "https://api.github.com", "acme/widgets"],
    [
      "https://gitlab.com/acme/platform/widgets.git",
      "gitlab",
      "https://gitlab.com/api/v4",
      "acme/platform/widgets",
    ],
    [
      "git@gitlab.com:acme/platform/widgets.git",
      "gitlab",
      "https://gitlab.com/api/v4",
      "acme/platform/widgets",
    ],
    ["ssh://git@gitlab.com/acme/widgets", "gitlab", "https://gitlab.com/api/v4", "acme/widgets"],
    ["HTTPS://GitHub.com/acme/widgets.git", "github", "https://api.github.com", "acme/widgets"],
  ])("S-FG-08: %s → %s %s %s", (url, forge, forgeUrl, forgeRepo) => {
    expect(forgeFromRemote(url)).toEqual({ forge, forgeUrl, forgeRepo });
  });

  it.each([
    "/srv/git/widgets.git",
    "file:///srv/git/widgets.git",
    "https://git.example.com/acme/widgets.git",
    "git@git.example.com:acme/widgets.git",
    "https://github.com/acme",
    "https://github.com/acme/widgets/extra",
    "ext::sh -c evil",
    "",
  ])("S-FG-08: nothing is derived from %j (another host, a local path, no repository)", (url) => {
    expect(forgeFromRemote(url)).toBeNull();
  });
});

describe("a remote's transport", () => {
  it("names git's prompt origin exactly, with the port, and tells a user or a password in the URL", () => {
    expect(remoteTransport("https://git.example.com:8443/a/b.git")).toEqual({
      kind: "https",
      origin: "https://git.example.com:8443",
      host: "git.example.com",
      user: null,
      password: false,
      path: "/a/b.git",
    });
    expect(remoteTransport("http://bob@127.0.0.1:9000/x.git")).toMatchObject({
      kind: "http",
      user: "bob",
      password: false,
    });
    expect(remoteTransport("https://bob:pw@h/x.git")).toMatchObject({ user: "bob", password: true });
    expect(remoteTransport("/srv/x.git")).toEqual({ kind: "file" });
    expect(remoteTransport("git@h.example:x.git")).toEqual({ kind: "ssh", host: "h.example", path: "x.git" });
    expect(remoteTransport("git://h/x.git")).toBeNull();
    expect(remoteTransport("ext::sh -c evil")).toBeNull();
  });
});
