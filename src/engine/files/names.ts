const NAME_MAX = 100;

/**
 * A file name safe in any directory: no path (only the last component), no character outside
 * letters, digits, `.`, `_` and `-`, no leading dot (nothing hidden, never `.` or `..`), at most
 * 100 characters with the extension kept. Another person's name for a file is data, never a path.
 */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const cleaned = last
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[.]+/, "")
    .replace(/_+/g, "_");
  const safe = cleaned || "file";
  if (safe.length <= NAME_MAX) return safe;
  const dot = safe.lastIndexOf(".");
  const ext = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : "";
  return safe.slice(0, NAME_MAX - ext.length) + ext;
}

/** The n-th alternative of a name (`report.csv` → `report-2.csv`), for a name already taken. */
export function numberedName(name: string, n: number): string {
  if (n <= 1) return name;
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}
