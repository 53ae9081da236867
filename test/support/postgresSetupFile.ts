import { afterAll } from "vitest";
import { dropDatabaseAhead } from "./testDatabase.js";

// Each test file of the postgres project: the database made ahead for a next test is dropped.
afterAll(dropDatabaseAhead);
