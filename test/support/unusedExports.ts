import path from "node:path";
import { stripComments } from "./sourceScan.js";

/** What one module exports and imports, read from its text (relative specifiers only). */
interface ModuleInfo {
  /** Names declared here and exported, or exported by `export { a as b }` without `from`. */
  own: Set<string>;
  /** Exported types and interfaces named elsewhere in this module (part of an exported signature). */
  typesUsedHere: Set<string>;
  /** `export { a as b } from "m"`: b → [m, a]. */
  reexports: Map<string, [string, string]>;
  /** `export * from "m"`. */
  stars: string[];
  /** Names this module takes from each other module ("*": all of them). */
  uses: Array<[string, string]>;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** `a`, `a as b`, `type a as b` of a braced list → [local, exported] pairs. */
function specifiers(list: string): Array<[string, string]> {
  return list
    .split(",")
    .map((s) => s.trim().replace(/^type\s+/, ""))
    .filter(Boolean)
    .map((s) => {
      const [from, to] = s.split(/\s+as\s+/);
      return [from!.trim(), (to ?? from!).trim()] as [string, string];
    });
}

/** The module a relative specifier names among `files`, or null (a package, JSON, a missing file). */
function resolve(files: ReadonlyMap<string, string>, from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.posix.join(path.posix.dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}/index.ts`])
    if (files.has(candidate)) return candidate;
  return null;
}

/** What a module exports and uses; Biome's formatting puts every top-level export at column 0. */
function readModule(files: ReadonlyMap<string, string>, file: string, source: string): ModuleInfo {
  const code = stripComments(source);
  const info: ModuleInfo = {
    own: new Set(),
    typesUsedHere: new Set(),
    reexports: new Map(),
    stars: [],
    uses: [],
  };
  const target = (spec: string) => resolve(files, file, spec);
  for (const m of code.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(function\s*\*?|const|let|var|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm,
  )) {
    const name = m[2]!;
    info.own.add(name);
    const mentions =
      code.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g"))?.length ?? 0;
    if ((m[1] === "type" || m[1] === "interface") && mentions > 1) info.typesUsedHere.add(name);
  }
  if (/^export\s+default\b/m.test(code)) info.own.add("default");
  for (const m of code.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*["']([^"']+)["'])?/gm)) {
    const from = m[2] === undefined ? undefined : target(m[2]);
    for (const [local, exported] of specifiers(m[1]!)) {
      if (m[2] === undefined) info.own.add(exported);
      else if (from) info.reexports.set(exported, [from, local]);
    }
  }
  for (const m of code.matchAll(/^export\s+\*\s+(?:as\s+([A-Za-z_$][\w$]*)\s+)?from\s*["']([^"']+)["']/gm)) {
    const from = target(m[2]!);
    if (!from) continue;
    // `export * as ns`: ns is an export of this module standing for all of the other's.
    if (m[1]) info.reexports.set(m[1], [from, "*"]);
    else info.stars.push(from);
  }
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?([\w$\s{},*]*?)\s*from\s*["']([^"']+)["']/g)) {
    const from = target(m[2]!);
    if (!from) continue;
    const clause = m[1]!;
    const braced = /\{([^}]*)\}/.exec(clause);
    if (braced) for (const [imported] of specifiers(braced[1]!)) info.uses.push([from, imported]);
    const head = clause.replace(/\{[^}]*\}/, "").trim();
    const ns = /\*\s*as\s+([A-Za-z_$][\w$]*)/.exec(head);
    if (ns) {
      // A namespace used only as `ns.name` uses those names; used any other way, it uses all.
      const names = [...code.matchAll(new RegExp(`\\b${ns[1]}\\.([A-Za-z_$][\\w$]*)`, "g"))].map(
        (x) => x[1]!,
      );
      const bare = code.match(new RegExp(`\\b${ns[1]}\\b(?!\\s*\\.)`, "g"))?.length ?? 0;
      if (bare > 1) info.uses.push([from, "*"]);
      else for (const name of names) info.uses.push([from, name]);
    }
    const defaultName = head.split(",")[0]!.trim();
    if (defaultName && IDENT.test(defaultName)) info.uses.push([from, "default"]);
  }
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)(\s*\.\s*([A-Za-z_$][\w$]*))?/g)) {
    const from = target(m[1]!);
    if (from) info.uses.push([from, m[3] ?? "*"]);
  }
  return info;
}

/**
 * Exports of the `checked` modules that no other module imports, as `file: name`. `files` maps
 * POSIX paths relative to the project to their text; every module counts as an importer (tests too:
 * a seam used by a test is used). Imports through `export *` and `export { … } from` are followed.
 * A type or interface named elsewhere in its own module stays exported: it is part of an exported
 * signature, and a caller may need to name it.
 */
export function unusedExports(
  files: ReadonlyMap<string, string>,
  checked: (file: string) => boolean,
): string[] {
  const modules = new Map([...files].map(([file, source]) => [file, readModule(files, file, source)]));
  const used = new Set<string>();
  /** Whether `file` exports `name`, directly or through its re-exports. */
  const provides = (file: string, name: string, seen: Set<string>): boolean => {
    const m = modules.get(file);
    if (!m || seen.has(file)) return false;
    seen.add(file);
    return m.own.has(name) || m.reexports.has(name) || m.stars.some((s) => provides(s, name, seen));
  };
  const use = (file: string, name: string, seen: Set<string>): void => {
    const m = modules.get(file);
    const key = `${file}: ${name}`;
    if (!m || seen.has(key)) return;
    seen.add(key);
    if (name === "*") {
      for (const own of m.own) used.add(`${file}: ${own}`);
      for (const exported of m.reexports.keys()) use(file, exported, seen);
      for (const star of m.stars) use(star, "*", seen);
      return;
    }
    if (m.own.has(name)) {
      used.add(key);
      return;
    }
    const re = m.reexports.get(name);
    if (re) {
      used.add(key);
      use(re[0], re[1], seen);
      return;
    }
    for (const star of m.stars) if (provides(star, name, new Set())) use(star, name, seen);
  };
  for (const m of modules.values()) for (const [from, name] of m.uses) use(from, name, new Set());
  return [...modules]
    .filter(([file]) => checked(file))
    .flatMap(([file, m]) =>
      [...m.own, ...m.reexports.keys()]
        .filter((n) => !m.typesUsedHere.has(n))
        .map((name) => `${file}: ${name}`),
    )
    .filter((key) => !used.has(key))
    .sort();
}
