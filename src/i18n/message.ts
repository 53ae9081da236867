/** Values a message can interpolate: `{name}` in the text is replaced by `params.name`. */
export type Params = Readonly<Record<string, string | number>>;

/**
 * A catalog entry: a string with `{name}` placeholders, or a function of the params when the
 * wording depends on them (plurals, agreement). A function may itself return placeholders.
 */
export type Message = string | ((params: Params) => string);

/** The numeric value of a param (0 when absent or not a number), for plural choices. */
export function count(params: Params, name = "n"): number {
  const value = Number(params[name]);
  return Number.isFinite(value) ? value : 0;
}

/** Replaces `{name}` placeholders; unknown ones are left visible rather than silently emptied. */
export function interpolate(text: string, params: Params): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}
