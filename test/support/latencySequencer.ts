import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * What a file is guessed to take, in seconds, when vitest has no duration of it cached (a fresh
 * clone, CI): end-to-end files (real serve, Codex, git) take tens of seconds, view and unit
 * files a fraction of one. Vitest's own guess, the file's size, says little here.
 */
const GUESSED_SECONDS: [RegExp, number][] = [
  [/^test\/integration\//, 30],
  [/^test\/bot\//, 10],
  [/^test\/engine\/(lanes|orchestrations|forge)\//, 10],
  [/^test\/engine\//, 3],
];

/**
 * The order files start in (vitest.config.ts), for the files that run in the first group.
 * The others start longest first (vitest's cached durations, else the guess above), both
 * dialects mixed, so that no long file starts last and lengthens the run's tail. Vitest's own
 * order would also start every latency file at the beginning, while every worker is still
 * loading its modules and the PostgreSQL files all open their databases: a burst no priority
 * evens out. They are dealt in among the others instead, one every few files, from after the
 * first two rounds of starts to about two thirds of the queue.
 */
export class LatencySequencer extends BaseSequencer {
  private seconds(file: TestSpecification): number {
    const relative = path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join("/");
    const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative}`);
    if (cached) return cached.duration / 1000;
    return GUESSED_SECONDS.find(([pattern]) => pattern.test(relative))?.[1] ?? 0.5;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const all = await super.sort(files);
    // Files of a later group (latency files run apart) keep vitest's order, after the rest.
    const later = all.filter((f) => f.project.config.sequence.groupOrder !== 0);
    const sorted = all.filter((f) => f.project.config.sequence.groupOrder === 0);
    const isLatency = (f: TestSpecification) => f.project.name.endsWith("-latency");
    const latency = sorted.filter(isLatency);
    const seconds = new Map(sorted.map((f) => [f, this.seconds(f)]));
    const others = sorted.filter((f) => !isLatency(f)).sort((a, b) => seconds.get(b)! - seconds.get(a)!);
    if (latency.length === 0 || others.length === 0) return [...others, ...latency, ...later];
    const workers = this.ctx.config.maxWorkers || 1;
    const first = Math.min(others.length, 2 * workers);
    const every = Math.max(1, Math.floor(((others.length * 2) / 3 - first) / latency.length));
    const out = others.slice(0, first);
    let next = first;
    for (const file of latency) {
      out.push(file, ...others.slice(next, next + every));
      next += every;
    }
    out.push(...others.slice(next), ...later);
    return out;
  }
}
