import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen once landed. Queue sequence numbers without a global lock (issue 11): on PostgreSQL,
// `prompt_queue.seq` comes from the sequence `prompt_queue_seq` (enqueueIn takes `nextval` while
// it holds the conversation's row), which starts after every seq already given. `max(seq) + 1`
// raced under READ COMMITTED once enqueues stopped taking the global lock. SQLite keeps
// `max(seq) + 1` inside its file lock: this migration sends it nothing.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create sequence if not exists prompt_queue_seq as bigint minvalue 1`.execute(db);
  // The next value is max(seq) + 1 (or 1 on an empty queue), whatever the sequence said before.
  await sql`select setval('prompt_queue_seq', coalesce((select max(seq) from prompt_queue), 0) + 1, false)`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  // Nothing to undo on SQLite; on PostgreSQL an older version ignores the sequence.
}
