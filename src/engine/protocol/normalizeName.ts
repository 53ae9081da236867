/** Folds a display name to the key used to match projects: lower case, no accents, only letters and digits. */
export function normalizeName(s: string): string {
  // Lower-casing first: some capitals (e.g. "İ") lower-case to a letter plus a combining mark.
  return s
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}
