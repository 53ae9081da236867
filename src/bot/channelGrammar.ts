import { closest } from "../suggest.js";

// `/codex channel …` and `/codex project share|unshare …` (issue 32, item 4): a channel's settings
// are `key=value` words, the values possibly "quoted" (instructions are sentences).

/** What a channel's settings name. */
export type ChannelKey = "project" | "model" | "effort" | "instructions";
const KEYS: readonly ChannelKey[] = ["project", "model", "effort", "instructions"];
const EFFORTS = ["low", "medium", "high"];

/** Why a `channel set` or `unset` was refused before anything was asked of the engine. */
export type ChannelProblem =
  | { problem: "unknown_key"; key: string; suggestion: string | null }
  | { problem: "empty" | "repeated"; key: ChannelKey }
  | { problem: "effort"; value: string; allowed: string };

export type ChannelCommand =
  | { kind: "channel.show" }
  | { kind: "channel.set"; settings: Partial<Record<ChannelKey, string>> }
  /** `unset` of the keys named; `clear` names them all. */
  | { kind: "channel.unset"; keys: ChannelKey[] }
  | ({ kind: "channel.refused" } & ChannelProblem)
  | { kind: "project.share"; name: string; channel: string; prompt: boolean }
  | { kind: "project.unshare"; name: string; channel: string };

type Usage = { kind: "usage"; topic: "channel" | "project.share" };

const isKey = (k: string): k is ChannelKey => (KEYS as readonly string[]).includes(k);
const unknownKey = (key: string): ChannelCommand => ({
  kind: "channel.refused",
  problem: "unknown_key",
  key,
  suggestion: closest(key, KEYS),
});

/** `key=value` words, a value "quoted" (straight or typographic quotes) when it has spaces. */
const SETTING = /(\S+?)=(?:"([^"]*)"|“([^”]*)”|«\s*([^»]*?)\s*»|(\S*))(?=\s|$)/y;

/** Parses the words after `/codex channel`. */
export function parseChannel(args: string): ChannelCommand | Usage {
  const text = args.trim();
  const verb = /^\S*/.exec(text)?.[0] ?? "";
  const rest = text.slice(verb.length).trim();
  if (!verb) return { kind: "channel.show" };
  if (verb === "clear")
    return rest ? { kind: "usage", topic: "channel" } : { kind: "channel.unset", keys: [...KEYS] };
  if (verb === "unset") {
    const keys = rest.split(/\s+/).filter(Boolean);
    if (!keys.length) return { kind: "usage", topic: "channel" };
    const bad = keys.find((k) => !isKey(k));
    return bad !== undefined ? unknownKey(bad) : { kind: "channel.unset", keys: keys as ChannelKey[] };
  }
  if (verb !== "set") return { kind: "usage", topic: "channel" };
  return parseSettings(rest);
}

function parseSettings(text: string): ChannelCommand | Usage {
  const settings: Partial<Record<ChannelKey, string>> = {};
  let at = 0;
  for (;;) {
    while (/\s/.test(text[at] ?? "")) at++;
    if (at >= text.length) break;
    SETTING.lastIndex = at;
    const m = SETTING.exec(text);
    if (!m) return { kind: "usage", topic: "channel" };
    at = SETTING.lastIndex;
    const key = m[1] ?? "";
    const value = (m[2] ?? m[3] ?? m[4] ?? m[5] ?? "").trim();
    if (!isKey(key)) return unknownKey(key);
    if (settings[key] !== undefined) return { kind: "channel.refused", problem: "repeated", key };
    if (!value) return { kind: "channel.refused", problem: "empty", key };
    if (key === "effort" && !EFFORTS.includes(value))
      return { kind: "channel.refused", problem: "effort", value, allowed: EFFORTS.join(", ") };
    settings[key] = value;
  }
  return Object.keys(settings).length
    ? { kind: "channel.set", settings }
    : { kind: "usage", topic: "channel" };
}

/** `share NAME #channel [--prompt]` and `unshare NAME #channel`, given the words after `share`/`unshare`. */
export function parseShare(
  verb: "share" | "unshare",
  words: string[],
  channelOf: (token: string) => string | null,
): ChannelCommand | Usage {
  const [name, where, flag, ...more] = words;
  const channel = where ? channelOf(where) : null;
  const prompt = flag === "--prompt";
  if (!name || name.startsWith("--") || !channel || more.length || (flag !== undefined && !prompt))
    return { kind: "usage", topic: "project.share" };
  if (verb === "unshare")
    return prompt ? { kind: "usage", topic: "project.share" } : { kind: "project.unshare", name, channel };
  return { kind: "project.share", name, channel, prompt };
}
