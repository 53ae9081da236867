import type { Database } from "../../engine/api/runtime.js";
import type { ForgeLinksTable, ForgeName } from "./schema.js";

/** A forge account's link to a Slack member. */
export type ForgeLink = Pick<ForgeLinksTable, "forge" | "login" | "account_id" | "user_id">;

/**
 * Forge accounts acting as Slack members (`forge_links`), and the one-time codes that prove a
 * link from the forge (`forge_link_codes`). Logins are kept lower-case (forges compare them so);
 * the account's numeric id is pinned the first time the account is seen, so that a login given up
 * and taken by someone else does not inherit the link.
 */
export class ForgeLinks {
  constructor(private readonly db: Database) {}

  /** Links (or re-links) an account to a member. */
  async link(l: ForgeLink, madeBy: string, now: number): Promise<void> {
    const row = { ...l, login: l.login.toLowerCase(), made_by: madeBy, created_at: now };
    await this.db
      .insertInto("forge_links")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["forge", "login"]).doUpdateSet({
          user_id: row.user_id,
          account_id: row.account_id,
          made_by: madeBy,
          created_at: now,
        }),
      )
      .execute();
  }

  /** Removes an account's link; answers whether there was one. */
  async unlink(forge: ForgeName, login: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom("forge_links")
      .where("forge", "=", forge)
      .where("login", "=", login.toLowerCase())
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * The member an account acts as, or null: unlinked, or its login now belongs to another account
   * than the one first seen. The first sighting pins the account id.
   */
  async memberOf(forge: ForgeName, login: string, accountId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("forge_links")
      .select(["user_id", "account_id"])
      .where("forge", "=", forge)
      .where("login", "=", login.toLowerCase())
      .executeTakeFirst();
    if (!row) return null;
    if (row.account_id === null) {
      await this.db
        .updateTable("forge_links")
        .set({ account_id: accountId })
        .where("forge", "=", forge)
        .where("login", "=", login.toLowerCase())
        .where("account_id", "is", null)
        .execute();
      return row.user_id;
    }
    return row.account_id === accountId ? row.user_id : null;
  }

  /** Keeps a one-time code for `user` (replacing their earlier one on that forge). */
  async newCode(forge: ForgeName, user: string, code: string, expiresAt: number): Promise<void> {
    await this.db
      .deleteFrom("forge_link_codes")
      .where("forge", "=", forge)
      .where("user_id", "=", user)
      .execute();
    await this.db
      .insertInto("forge_link_codes")
      .values({ code, forge, user_id: user, expires_at: expiresAt })
      .execute();
  }

  /** Forgets the codes expired before `now`. */
  async forgetCodes(now: number): Promise<void> {
    await this.db.deleteFrom("forge_link_codes").where("expires_at", "<", now).execute();
  }

  /** Takes a code (once): the member it was made for, or null when unknown, used or expired. */
  async takeCode(forge: ForgeName, code: string, now: number): Promise<string | null> {
    const row = await this.db
      .selectFrom("forge_link_codes")
      .select(["user_id", "expires_at"])
      .where("code", "=", code)
      .where("forge", "=", forge)
      .executeTakeFirst();
    if (!row) return null;
    const taken = await this.db.deleteFrom("forge_link_codes").where("code", "=", code).executeTakeFirst();
    return Number(taken.numDeletedRows) === 1 && row.expires_at > now ? row.user_id : null;
  }
}
