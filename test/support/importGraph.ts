import fs from "node:fs";
import path from "node:path";

/** One relative import of a source file: its specifier and whether TypeScript erases it. */
export interface ImportEdge {
  spec: string;
  typeOnly: boolean;
}

/** A module graph: each file (path relative to the root) and the files it imports. */
export type ImportGraph = Map<string, Set<string>>;

// `import … from "./x"`, `export … from "./x"`, `import "./x"` and `import("./x")`. Comments are
// removed first so that an example in a doc comment is no edge.
const STATIC = /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/g;
const BARE = /(?:^|[;\n}])\s*import\s*["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Removes block and line comments (strings holding `//` are rare in imports' neighbourhood). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/**
 * The relative imports of a source file. An import is type-only when TypeScript erases it:
 * `import type`/`export type`, or braces whose every name is marked `type`.
 */
export function importsOf(source: string): ImportEdge[] {
  const text = stripComments(source);
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(STATIC)) {
    const clause = m[3] ?? "";
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    const names = braces
      ? braces[1]!
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean)
      : [];
    const allTyped = braces !== null && names.length > 0 && names.every((n) => n.startsWith("type "));
    edges.push({ spec: m[4]!, typeOnly: Boolean(m[2]) || allTyped });
  }
  for (const m of text.matchAll(BARE)) edges.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(DYNAMIC)) edges.push({ spec: m[1]!, typeOnly: false });
  return edges.filter((e) => e.spec.startsWith("."));
}

/** Every .ts file under a directory, relative to it. */
function tsFiles(root: string, dir = root): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? tsFiles(root, path.join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [path.relative(root, path.join(dir, e.name))]
          : [],
    );
}

/** Resolves `./x.js` (NodeNext style) from a file to the .ts file it names, inside the graph. */
function resolve(from: string, spec: string, files: Set<string>): string | undefined {
  const joined = path.normalize(path.join(path.dirname(from), spec));
  const candidates = [joined.replace(/\.js$/, ".ts"), `${joined}.ts`, path.join(joined, "index.ts")];
  return candidates.find((c) => files.has(c));
}

/** Builds the graph of a source tree; `runtimeOnly` leaves out the imports TypeScript erases. */
export function buildImportGraph(root: string, opts: { runtimeOnly: boolean }): ImportGraph {
  const files = new Set(tsFiles(root));
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const edge of importsOf(fs.readFileSync(path.join(root, file), "utf8"))) {
      if (opts.runtimeOnly && edge.typeOnly) continue;
      const target = resolve(file, edge.spec, files);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The cycles of a graph: one per strongly connected component of more than one file (or a file
 * importing itself), each given as a path `a → b → … → a` through that component.
 */
export function findCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative enough for a source tree (recursion depth = import depth).
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return components.map((c) => cycleThrough(graph, new Set(c)));
}

/** A shortest cycle through the component's first file (by name), found breadth-first. */
function cycleThrough(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!component.has(w)) continue;
      if (w === start) {
        const cycle = [start];
        for (let u: string | undefined = v; u && u !== start; u = previous.get(u)) cycle.splice(1, 0, u);
        return [...cycle, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * The graph of a folder's units: each subfolder is one unit, and each file directly in the folder
 * is its own. Files outside the folder, and imports within one unit, are left out. A cycle here is
 * folders depending on each other even when no file cycle closes it.
 */
export function unitGraph(graph: ImportGraph, folder: string): ImportGraph {
  const prefix = folder ? `${folder}/` : "";
  const unitOf = (file: string): string | undefined => {
    if (!file.startsWith(prefix)) return undefined;
    const rest = file.slice(prefix.length).split("/");
    return rest.length === 1 ? file : `${prefix}${rest[0]}`;
  };
  const units: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = unitOf(file);
    if (from === undefined) continue;
    const edges = units.get(from) ?? new Set<string>();
    for (const target of targets) {
      const to = unitOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
    units.set(from, edges);
  }
  return units;
}
