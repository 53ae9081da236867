import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const BOT = path.resolve("src/bot");
/** The bot's own tables: the only ones src/bot/store/ may query. */
const BOT_TABLES = new Set([
  "slack_posts",
  "slack_events",
  "slack_addresses",
  "slack_channel_defaults",
  "slack_thread_notices",
  "intake_requests",
  "intake_signatures",
]);

/** Every .ts file under a directory. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? filesUnder(path.join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [path.join(dir, e.name)]
          : [],
    );
}

/** What crosses the boundary in one source file: imports of kysely or the engine's schema, queries of tables not the bot's. */
export function boundaryViolations(source: string, opts: { store: boolean }): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(
    /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
  )) {
    const spec = m[1] ?? m[2] ?? "";
    if (spec === "kysely" || spec.startsWith("kysely/")) found.push(`imports ${spec}`);
    if (/(^|\/)engine\/schema(\.js)?$/.test(spec) || /(^|\/)db\/migrations\//.test(spec))
      found.push(`imports ${spec}`);
  }
  for (const m of source.matchAll(/\.(selectFrom|updateTable|insertInto|deleteFrom)\(\s*["'`]([^"'`\s]+)/g)) {
    const table = m[2]!;
    if (!opts.store || !BOT_TABLES.has(table)) found.push(`${m[1]}("${table}")`);
  }
  return found;
}

describe("the boundary between the engine and Slack", () => {
  it("src/bot imports neither kysely nor the engine's schema, and queries only its own tables, in src/bot/store alone", () => {
    const violations = filesUnder(BOT).flatMap((file) => {
      const store = path.relative(BOT, file).startsWith(`store${path.sep}`);
      return boundaryViolations(fs.readFileSync(file, "utf8"), { store }).map(
        (v) => `${path.relative(".", file)}: ${v}`,
      );
    });
    expect(violations).toEqual([]);
  });

  it("positive control: the scanner flags each kind of crossing in a fixture", () => {
    const fixture = fs.readFileSync(path.resolve("test/bot/fixtures/crossing.ts.txt"), "utf8");
    expect(boundaryViolations(fixture, { store: false })).toEqual([
      "imports kysely",
      "imports ../../engine/schema.js",
      "imports ../../../db/migrations/index.js",
      'selectFrom("prompt_queue")',
      'updateTable("conversations")',
      'insertInto("slack_posts")',
    ]);
    // In the store, the bot's own tables are allowed; the engine's never, nor kysely.
    expect(boundaryViolations(fixture, { store: true })).toEqual([
      "imports kysely",
      "imports ../../engine/schema.js",
      "imports ../../../db/migrations/index.js",
      'selectFrom("prompt_queue")',
      'updateTable("conversations")',
    ]);
  });
});
