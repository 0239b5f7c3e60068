/**
 * In-order release of callbacks behind asynchronous acknowledgements (the stream's PubAcks): items are
 * numbered as they are sent, acknowledged in any order, and a callback runs once every item sent before
 * it was given is acknowledged. Callbacks run in the order they were given, never one overtaking another.
 */
export class AckTracker {
  /** Items sent so far (the next item's number is `sent + 1`). */
  private sentSeq = 0;
  /** Every item up to this one is acknowledged. */
  private contiguous = 0;
  /** Acknowledged items above `contiguous` (acks that arrived ahead of an earlier one). */
  private readonly ahead = new Set<number>();
  private waiters: { seq: number; callback: () => void }[] = [];
  private head = 0;
  private readonly drained = new Set<() => void>();

  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  get sent(): number {
    return this.sentSeq;
  }

  get acknowledged(): number {
    return this.contiguous;
  }

  /** Numbers the next item sent. */
  next(): number {
    return ++this.sentSeq;
  }

  ack(seq: number): void {
    if (seq <= this.contiguous) return;
    if (seq !== this.contiguous + 1) {
      this.ahead.add(seq);
      return;
    }
    this.contiguous = seq;
    while (this.ahead.delete(this.contiguous + 1)) this.contiguous++;
    this.release();
  }

  /** Runs `callback` once every item sent so far is acknowledged (at once when all are and no callback waits). */
  after(callback: () => void): void {
    if (this.head === this.waiters.length && this.contiguous >= this.sentSeq) {
      this.run(callback);
      return;
    }
    this.waiters.push({ seq: this.sentSeq, callback });
  }

  /** Resolves true once every item sent so far is acknowledged, false after `maxMs`. */
  settled(maxMs: number): Promise<boolean> {
    if (this.contiguous >= this.sentSeq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const mark = this.sentSeq;
      const timer = setTimeout(() => finish(false), maxMs);
      const check = () => {
        if (this.contiguous >= mark) finish(true);
      };
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.drained.delete(check);
        resolve(ok);
      };
      this.drained.add(check);
    });
  }

  private release(): void {
    const w = this.waiters;
    let i = this.head;
    while (i < w.length && w[i]!.seq <= this.contiguous) this.run(w[i++]!.callback);
    if (i === w.length) {
      this.waiters = [];
      this.head = 0;
    } else if (i > 1024 && i * 2 > w.length) {
      this.waiters = w.slice(i);
      this.head = 0;
    } else {
      this.head = i;
    }
    for (const check of [...this.drained]) check();
  }

  private run(callback: () => void): void {
    try {
      callback();
    } catch (err) {
      this.onError(err);
    }
  }
}
