import type { Database } from "../../engine/api/runtime.js";

/**
 * The follow-ups failed checks started (`forge_ci_tries`, 0040): one per pull request (its thread
 * key) and failing commit, so that two events about one failure (GitHub's `check_suite` and
 * `workflow_run`), or a redelivery, make one try; counted per pull request against the project's
 * `--fix-ci-tries`. Durable: a restart does not give a pull request its tries back.
 */
export class ForgeCiTries {
  constructor(private readonly db: Database) {}

  /** Whether the failure of this commit already had its try. */
  async tried(threadKey: string, headSha: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("forge_ci_tries")
      .select("head_sha")
      .where("thread_key", "=", threadKey)
      .where("head_sha", "=", headSha)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** How many tries the pull request had. */
  async count(threadKey: string): Promise<number> {
    const row = await this.db
      .selectFrom("forge_ci_tries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("thread_key", "=", threadKey)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Records a try (once per commit). */
  async record(threadKey: string, headSha: string, job: string, queueId: string, now: number): Promise<void> {
    await this.db
      .insertInto("forge_ci_tries")
      .values({ thread_key: threadKey, head_sha: headSha, job, queue_id: queueId, created_at: now })
      .onConflict((oc) => oc.columns(["thread_key", "head_sha"]).doNothing())
      .execute();
  }
}
