import { type HostEntry, formatHostEntry, parseHostEntry } from "./policy.js";

/**
 * Named lists of the hosts a package manager or forge really needs, on 80 and 443. Each name is
 * what people type after `allow-host`; the hosts are the registries' own (no mirrors, no CDNs
 * they do not redirect to).
 */
export const NETWORK_PRESETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // npm, pnpm and yarn (classic, through its alias of the same registry) fetch metadata and tarballs here.
  npm: ["registry.npmjs.org", "registry.yarnpkg.com"],
  // pip: the index (pypi.org/simple) and the files it links to.
  pypi: ["pypi.org", "files.pythonhosted.org"],
  // cargo: the sparse index, the crates' downloads (crates.io redirects to static.crates.io).
  crates: ["crates.io", "index.crates.io", "static.crates.io"],
  // git over https, the REST API, archives, release assets and raw files.
  github: [
    "github.com",
    "api.github.com",
    "codeload.github.com",
    "objects.githubusercontent.com",
    "raw.githubusercontent.com",
  ],
  // apt on Debian images.
  debian: ["deb.debian.org", "security.debian.org"],
  // go modules through the default GOPROXY, with the checksum database GOSUMDB checks them against.
  golang: ["proxy.golang.org", "sum.golang.org"],
  // gem and bundler.
  rubygems: ["rubygems.org", "index.rubygems.org"],
  // Maven Central, for maven and gradle.
  maven: ["repo.maven.apache.org", "repo1.maven.org"],
});

/** The preset names, in the order docs and usage lines list them. */
export const PRESET_NAMES: readonly string[] = Object.keys(NETWORK_PRESETS);

/**
 * The entries a list of arguments names: each is a preset's name (its hosts) or one entry
 * (`parseHostEntry`); `a,b` counts as two. In order, each entry once. Throws on the first
 * argument that is neither.
 */
export function expandHostArgs(args: readonly string[]): HostEntry[] {
  const seen = new Map<string, HostEntry>();
  for (const arg of args.flatMap((a) => a.split(","))) {
    const word = arg.trim();
    if (word === "") continue;
    const preset = Object.hasOwn(NETWORK_PRESETS, word.toLowerCase())
      ? NETWORK_PRESETS[word.toLowerCase()]
      : undefined;
    for (const entry of preset ? preset.map(parseHostEntry) : [parseHostEntry(word)])
      seen.set(formatHostEntry(entry), entry);
  }
  return [...seen.values()];
}
