/** Folds a display name to the key used to match projects: lower case, no accents, only letters and digits. */
export function normalizeName(s: string): string {
  // Lower-casing first: some capitals (e.g. "İ") lower-case to a letter plus a combining mark.
  return s
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** A name as a path or branch segment: accents stripped, lower case, dashes, at most 40 characters. */
export function slugify(name: string, fallback: string): string {
  return (
    name
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || fallback
  );
}
