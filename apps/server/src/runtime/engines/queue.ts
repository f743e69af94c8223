// A small async queue: producers push, one consumer iterates until end() or fail().
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private failWaiting: ((e: unknown) => void) | null = null;
  private done = false;
  private error: unknown = null;

  push(item: T): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.failWaiting = null;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.failWaiting = null;
      w({ value: undefined as never, done: true });
    }
  }

  fail(err: unknown): void {
    if (this.done) return;
    this.error = err;
    this.done = true;
    if (this.failWaiting) {
      const f = this.failWaiting;
      this.waiting = this.failWaiting = null;
      f(err);
    }
  }

  get ended(): boolean {
    return this.done;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.error) return Promise.reject(this.error);
        if (this.done) return Promise.resolve({ value: undefined as never, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      return: () => {
        this.end();
        return Promise.resolve({ value: undefined as never, done: true });
      },
    };
  }
}
