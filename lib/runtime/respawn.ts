// A worker pool's replacements (lib/runtime/worker-pool.ts): a worker that stops is replaced, and a replacement
// that fails to start is tried again with backoff (1 s, doubling up to 30 s), until the pool closes.
export class Respawner {
  private retryMs = 1000
  /** workers replaced after stopping (for tests and diagnostics) */
  replaced = 0

  /**
   * spawn: starts one worker, resolving once it is ready; failed: told of each failed start and
   * the wait before the next, so the pool can refuse what would otherwise wait for no worker.
   */
  constructor (
    private readonly spawn: () => Promise<void>,
    private readonly closed: () => boolean,
    private readonly failed: (err: Error, retryMs: number) => void
  ) {}

  replace (): void {
    this.spawn().then(
      () => {
        this.replaced++
        this.retryMs = 1000
      },
      (err: Error) => {
        if (this.closed()) return
        this.failed(err, this.retryMs)
        setTimeout(() => {
          if (!this.closed()) this.replace()
        }, this.retryMs).unref()
        this.retryMs = Math.min(30_000, this.retryMs * 2)
      }
    )
  }
}
