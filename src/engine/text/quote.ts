/**
 * Text written by agents and users, quoted as data, never as instructions: every line starts with
 * `> `, so nothing inside can end the quote. Quoted whole unless `max` is given, and then a cut
 * says so (long texts for agents go through `passText`, which saves the whole text).
 */
export function quote(text: string, max = Number.POSITIVE_INFINITY): string {
  const shown = text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} / ${text.length}]` : text;
  return shown
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}
