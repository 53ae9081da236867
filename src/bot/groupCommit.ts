/**
 * Group commit: many callers' writes, one durable commit. The first caller starts a commit of
 * everything queued once the current turn of the event loop is over (the requests read from the
 * sockets in that turn join it); callers arriving while a commit is in flight wait for the next
 * one, which takes all of them. A caller's promise settles only once the commit holding its item
 * has ended, with that commit's result for it or its error: nothing is acknowledged before it is
 * durable, and a burst of requests costs a few commits (fsyncs) rather than one each. Used for
 * the intake journal (intake/intake.ts) and the seen signatures (receiver/signatureCheck.ts).
 */
export class GroupCommit<In, Out> {
  private queue: Array<{ item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = [];
  private running = false;

  /**
   * @param commit writes `items` durably, in one transaction; its results in the same order.
   * @param maxBatch the most items one commit takes (a bound on the commit's size and time).
   */
  constructor(
    private readonly commit: (items: In[]) => Promise<Out[]>,
    private readonly maxBatch = 100,
  ) {}

  /** Queues `item`; resolves with its result once the commit holding it has ended. */
  add(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // The requests of this turn are all read before the first commit starts.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const out = await this.commit(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(out[i] as Out));
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
