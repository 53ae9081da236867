import fs from "node:fs";
import { z } from "zod";

// The optional price table (CODEXPI_PRICES): per model, the price of one million input, cached
// input and output tokens, in one currency the table names. Without it no cost is shown anywhere.
// A turn's model is the `model=` it asked for; turns on Codex's configured model use `default`.

const price = z.number().nonnegative();
const modelPrices = z.strictObject({ input: price, cached: price.optional(), output: price });

const tableSchema = z.strictObject({
  currency: z.string().min(1).max(8).default("USD"),
  models: z.record(z.string().min(1), modelPrices),
});

/** Prices per model (per 1M tokens), and their currency. */
export type PriceTable = z.infer<typeof tableSchema>;

/** Reads the table from JSON, or from the JSON file it names; throws with a readable message. */
export function parsePrices(value: string): PriceTable {
  const text = value.trimStart().startsWith("{") ? value : fs.readFileSync(value, "utf8");
  const parsed = tableSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(
      `expected {"currency":"USD","models":{"<model>|default":{"input":…,"cached":…,"output":…}}}`,
    );
  return parsed.data;
}

/** Token counts of some turns of one model. */
export interface TokenSums {
  input: number;
  cached: number;
  output: number;
}

/**
 * What some turns of `model` cost (null model: Codex's configured one, priced as `default`), or
 * null when the table has no price for it. Cached input is part of input, at its own price.
 */
export function costOf(table: PriceTable, model: string | null, t: TokenSums): number | null {
  const p = table.models[model ?? "default"] ?? table.models.default;
  if (!p) return null;
  const cached = Math.min(t.cached, t.input);
  return ((t.input - cached) * p.input + cached * (p.cached ?? p.input) + t.output * p.output) / 1_000_000;
}
