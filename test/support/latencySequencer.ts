import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { LATENCY_FILES } from "./latencyFiles.js";

/**
 * What each file took in a whole run on the 2-core machine, in seconds, by `project:file`
 * (test/support/fileSeconds.json, written by `node test/support/recordFileSeconds.mjs` after a
 * run): a fresh clone (CI) has no durations of vitest's own, and starting the long files first is
 * most of what keeps the run's tail short.
 */
const RECORDED: Record<string, number> = JSON.parse(
  fs.readFileSync(new URL("./fileSeconds.json", import.meta.url), "utf8"),
);

/**
 * What a file is guessed to take, in seconds, when neither vitest nor the table above has its
 * duration (a new file): end-to-end files (real serve, Codex, git) take tens of seconds, view
 * and unit files a fraction of one. Vitest's own guess, the file's size, says little here.
 */
const GUESSED_SECONDS: [RegExp, number][] = [
  [/^test\/integration\//, 30],
  [/^test\/bot\//, 10],
  [/^test\/engine\/(lanes|orchestrations|forge)\//, 10],
  [/^test\/engine\//, 3],
];

/**
 * The order files start in (vitest.config.ts). Vitest keeps a worker, and the app's modules it
 * loaded, only while the next file in the queue is of the same project: each project's files are
 * queued together (PostgreSQL's first, then SQLite's many short files, which fill the tail).
 * Within a project files start longest first (vitest's cached durations, else the table or the guess
 * above),
 * so that no long file starts last and lengthens the run's tail. Vitest's own order would also
 * start every latency file at the beginning, while every worker is still loading its modules and
 * the PostgreSQL files all open their databases: a burst no priority evens out. They are dealt in
 * among the others instead, one every few files, from after the first two rounds of starts to
 * about two thirds of their project's queue.
 */
export class LatencySequencer extends BaseSequencer {
  private relative(file: TestSpecification): string {
    return path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join("/");
  }

  private seconds(file: TestSpecification): number {
    const relative = this.relative(file);
    const key = `${file.project.name}:${relative}`;
    const cached = this.ctx.cache.getFileTestResults(key);
    // A failed run's duration is its time-outs, not the file's.
    if (cached && !cached.failed) return cached.duration / 1000;
    if (RECORDED[key] !== undefined) return RECORDED[key];
    return GUESSED_SECONDS.find(([pattern]) => pattern.test(relative))?.[1] ?? 0.5;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const all = await super.sort(files);
    const out: TestSpecification[] = [];
    const groups = [...new Set(all.map((f) => f.project.config.sequence.groupOrder))].sort((a, b) => a - b);
    for (const group of groups) {
      const inGroup = all.filter((f) => f.project.config.sequence.groupOrder === group);
      const projects = [...new Set(inGroup.map((f) => f.project.name))].sort();
      for (const name of projects)
        out.push(...this.projectOrder(inGroup.filter((f) => f.project.name === name)));
    }
    return out;
  }

  /** One project's files: longest first, the latency files dealt in among them. */
  private projectOrder(files: TestSpecification[]): TestSpecification[] {
    const seconds = new Map(files.map((f) => [f, this.seconds(f)]));
    const byLength = [...files].sort((a, b) => seconds.get(b)! - seconds.get(a)!);
    const isLatency = (f: TestSpecification) => LATENCY_FILES.includes(this.relative(f));
    const latency = byLength.filter(isLatency);
    const others = byLength.filter((f) => !isLatency(f));
    if (latency.length === 0 || others.length === 0) return byLength;
    const workers = files[0]?.project.config.maxWorkers || this.ctx.config.maxWorkers || 1;
    const first = Math.min(others.length, 2 * workers);
    const every = Math.max(1, Math.floor(((others.length * 2) / 3 - first) / latency.length));
    const out = others.slice(0, first);
    let next = first;
    for (const file of latency) {
      out.push(file, ...others.slice(next, next + every));
      next += every;
    }
    out.push(...others.slice(next));
    return out;
  }
}
