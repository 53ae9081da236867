import type { ColumnDataType, ColumnDefinitionBuilder, Kysely } from "kysely";

type ColumnSpec = [name: string, type: ColumnDataType, build: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

/** Adds the columns a table lacks, so that a migration interrupted half-way can simply run again. */
export async function addMissingColumns(db: Kysely<unknown>, table: string, columns: ColumnSpec[]): Promise<void> {
  const tables = await db.introspection.getTables();
  const existing = new Set(tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? []);
  for (const [name, type, build] of columns) {
    if (existing.has(name)) continue;
    await db.schema.alterTable(table).addColumn(name, type, build).execute();
  }
}
