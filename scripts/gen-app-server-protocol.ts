/**
 * Copies the types of Codex's app-server protocol that codexpi uses, as the pinned binary
 * generates them (`codex app-server generate-ts`), into src/engine/codex/appServer/protocol/.
 *
 * Only the files our code imports and their transitive imports are kept (the full output is
 * ~800 files). Their relative imports get the `.js` extension NodeNext requires; nothing else
 * changes. test/engine/appServerProtocol.test.ts regenerates them and fails on any difference,
 * so a Codex upgrade cannot change the protocol silently.
 *
 * Usage: `npm run build && node dist/scripts/gen-app-server-protocol.js` (after changing which
 * protocol types src/ imports, or after upgrading Codex).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { resolveCodexBinary } from "../src/engine/codex/codexBinary.js";

/** Where the kept protocol files live, relative to the repository's root. */
export const PROTOCOL_DIR = "src/engine/codex/appServer/protocol";

const RELATIVE_FROM = /(from\s+")(\.{1,2}\/[^"]+)(")/g;

/** The relative import specifiers of a generated file (`./X`, `../v2/Y`). */
function relativeImports(source: string): string[] {
  return [...source.matchAll(RELATIVE_FROM)].map((m) => m[2]!);
}

/** NodeNext needs explicit extensions: `"./Turn"` becomes `"./Turn.js"`. */
function withJsExtensions(source: string): string {
  return source.replace(RELATIVE_FROM, (_all, head: string, spec: string, tail: string) =>
    spec.endsWith(".js") ? `${head}${spec}${tail}` : `${head}${spec}.js${tail}`,
  );
}

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? tsFiles(path.join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [path.join(dir, e.name)]
          : [],
    );
}

/**
 * The protocol files codexpi's own code imports (paths relative to the protocol directory), read
 * from the sources under `<root>/src` outside the protocol directory itself.
 */
export function protocolRoots(root: string): string[] {
  const protocol = path.join(root, PROTOCOL_DIR);
  const roots = new Set<string>();
  for (const file of tsFiles(path.join(root, "src"))) {
    if (file.startsWith(protocol + path.sep)) continue;
    for (const spec of relativeImports(fs.readFileSync(file, "utf8"))) {
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, ".ts");
      if (target.startsWith(protocol + path.sep)) roots.add(path.relative(protocol, target));
    }
  }
  return [...roots].sort();
}

/**
 * Runs the pinned binary's generator and returns the files to keep (relative path → content):
 * the roots and everything they import, transitively, with `.js` extensions added.
 */
export async function generateProtocol(bin: string, roots: readonly string[]): Promise<Map<string, string>> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-protocol-"));
  try {
    await execa(bin, ["app-server", "generate-ts", "--out", out], { stdin: "ignore" });
    const kept = new Map<string, string>();
    const todo = [...roots];
    while (todo.length) {
      const rel = path.normalize(todo.pop()!);
      if (kept.has(rel)) continue;
      const file = path.join(out, rel);
      if (!fs.existsSync(file)) throw new Error(`codex app-server generate-ts wrote no ${rel}`);
      const source = fs.readFileSync(file, "utf8");
      kept.set(rel, withJsExtensions(source));
      for (const spec of relativeImports(source))
        todo.push(path.relative(out, path.resolve(path.dirname(file), `${spec.replace(/\.js$/, "")}.ts`)));
    }
    return new Map([...kept].sort(([a], [b]) => a.localeCompare(b)));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The committed protocol files (relative path → content). */
export function committedProtocol(root: string): Map<string, string> {
  const dir = path.join(root, PROTOCOL_DIR);
  if (!fs.existsSync(dir)) return new Map();
  return new Map(tsFiles(dir).map((f) => [path.relative(dir, f), fs.readFileSync(f, "utf8")] as const));
}

async function main(): Promise<void> {
  const root = process.cwd();
  const bin = resolveCodexBinary(process.env.CODEX_BIN);
  if (!bin) throw new Error("no Codex binary (set CODEX_BIN or install @openai/codex)");
  const files = await generateProtocol(bin, protocolRoots(root));
  const dir = path.join(root, PROTOCOL_DIR);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  process.stdout.write(`${files.size} protocol files written to ${PROTOCOL_DIR}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
