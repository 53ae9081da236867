import fs from "node:fs";
import path from "node:path";

/**
 * Removes what the files' folders of the data directory kept past `before` (epoch ms): staged files
 * of prompts that never ran (cancelled, refused after staging) and handed-back files whose
 * conversation has no thread to upload them to. Answers how many folders went.
 */
export function pruneStaleFiles(dataDir: string, before: number): number {
  let removed = 0;
  for (const side of ["in", "out"]) {
    const root = path.join(dataDir, "files", side);
    if (!fs.existsSync(root)) continue;
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
      const dir = path.join(root, entry.name);
      const st = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!st || st.mtimeMs >= before) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
