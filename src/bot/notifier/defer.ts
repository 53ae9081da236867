/** Thrown to put an event back for `ms` (a message's edit limit, the workspace's Slack budget). */
export class Defer extends Error {
  constructor(readonly ms: number) {
    super(`deferred ${ms} ms`);
  }
}
