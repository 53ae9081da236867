// Slack's message markup as a person reads it in Slack, for quoting to an agent: mentions with
// names, links with their labels, entities decoded. Pure.

const USER_MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;

/** The user ids a message's text mentions (`<@U…>`), once each. */
export function mentionedUsers(text: string): string[] {
  return [...new Set([...text.matchAll(USER_MENTION)].map((m) => m[1] as string))];
}

/**
 * The text as Slack shows it: `<@U1>` → `@name`, `<#C1|general>` → `#general`, `<!here>` →
 * `@here`, `<https://x|label>` → `label (https://x)`, `<https://x>` → `https://x`, then `&lt;`,
 * `&gt;` and `&amp;` decoded (last, so that a decoded `<` never reads as markup).
 */
export function readableText(text: string, nameOf: (userId: string) => string | undefined): string {
  return text
    .replace(USER_MENTION, (_, id: string) => `@${nameOf(id) ?? id}`)
    .replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, (_, name: string) => `#${name}`)
    .replace(/<#([CG][A-Z0-9]+)>/g, (_, id: string) => `#${id}`)
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, (_, word: string) => `@${word}`)
    .replace(/<!subteam\^[A-Z0-9]+\|([^>]*)>/g, (_, name: string) => name)
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]*)>/g, (_, url: string, label: string) => `${label} (${url})`)
    .replace(/<((?:https?|mailto):[^>]+)>/g, (_, url: string) => url)
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** A Slack `ts` ("1700000000.000100") as epoch milliseconds. */
export function tsToMillis(ts: string): number {
  const ms = Math.round(Number(ts) * 1000);
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}

/** Whether Slack timestamp `a` comes before `b` (same fixed width: they compare as numbers). */
export function tsBefore(a: string, b: string): boolean {
  return Number(a) < Number(b);
}
