import { describe, expect, it } from "vitest";
import type { ForgeView } from "../../src/engine/api/model.js";
import type { Block } from "../../src/views/blocks.js";
import { forgeSettingsView } from "../../src/views/forge.js";
import { expectWithinBlockKit, texts } from "./blockKit.js";

const derived: ForgeView = {
  name: "app",
  remote: "origin",
  remoteUrl: "https://github.com/acme/app.git",
  set: { forge: null, forgeUrl: null, forgeRepo: null },
  effective: { forge: "github", forgeUrl: "https://api.github.com", forgeRepo: "acme/app" },
  token: "install",
  publishing: { push: true, pullRequest: true, gap: null, remote: "origin" },
};

const all = (v: ForgeView, locale: "en" | "fr" = "en", changed = false) => {
  const m = forgeSettingsView(locale, v, { changed });
  expectWithinBlockKit(m.blocks as Block[]);
  return texts(m.blocks as Block[]).join("\n");
};

describe("forge settings view", () => {
  it("S-CARD-15: shows the remote and its URL, what was set and what was derived from the remote, which token is stored, what lane cards offer, and that the token is set on the host only", () => {
    const text = all(derived);
    expect(text).toContain("Forge settings of `app`");
    expect(text).toContain("Remote: `origin` → `https://github.com/acme/app.git`");
    expect(text).toContain("Forge: `github` (from the remote's URL)");
    expect(text).toContain("Repository: `acme/app` (from the remote's URL)");
    expect(text).toContain("Token: the install's (none for this project)");
    expect(text).toContain("Push branch: yes · Open pull request: yes");
    expect(text).toContain("`codexpi project credential app --forge-token -`");
    expect(text).toContain("never given or shown in Slack");

    const set: ForgeView = {
      ...derived,
      remoteUrl: null,
      set: { forge: "gitlab", forgeUrl: "https://git.example/api/v4", forgeRepo: "acme/tools/app" },
      effective: { forge: "gitlab", forgeUrl: "https://git.example/api/v4", forgeRepo: "acme/tools/app" },
      token: null,
      publishing: { push: false, pullRequest: false, gap: "remote", remote: "origin" },
    };
    const setText = all(set, "en", true);
    expect(setText).toContain("Forge settings of `app` changed");
    expect(setText).toContain("Remote: `origin` → _none in the project's checkout_");
    expect(setText).toContain("Repository: `acme/tools/app` (set)");
    expect(setText).toContain("Token: _none stored_");
    expect(setText).toContain("Push branch: no · Open pull request: no");
    expect(all({ ...set, set: { forge: null, forgeUrl: null, forgeRepo: null }, effective: null })).toContain(
      "Forge: _none_",
    );
    expect(all(derived, "fr")).toContain("Jeton : celui de l’installation");
  });
});
