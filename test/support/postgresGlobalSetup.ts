import type { TestProject } from "vitest/node";
import type { Kysely } from "kysely";
import pg from "pg";
import { migrate, openDatabase } from "../../src/engine/database.js";
import { PG_TEMPLATE_DATABASE, withDatabase } from "./testDatabase.js";
import { startPostgres } from "./postgresServer.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the suite's PostgreSQL (its `postgres` database). */
    pgAdminUrl: string;
  }
}

/**
 * The postgres project's global setup: one server for the whole run, and a template database
 * migrated once, from which every test's database is copied (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const server = await startPostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const db = openDatabase({ dialect: "postgres", url: withDatabase(server.adminUrl, PG_TEMPLATE_DATABASE) });
  try {
    await migrate(db as unknown as Kysely<unknown>);
  } finally {
    await db.destroy();
  }
  process.stdout.write(`PostgreSQL for the tests: ready and migrated in ${Date.now() - started} ms\n`);
  project.provide("pgAdminUrl", server.adminUrl);
  return async () => server.stop();
}
