/** Anything with a `dispose()`: VS Code's disposables, child processes wrapped by us, timers. */
export interface DisposableLike {
  dispose(): unknown;
}

/**
 * Base class for long-lived parts of the extension: everything a part creates goes through `_register`, so
 * disposing the part releases all of it (listeners, emitters, views) and nothing leaks on deactivate.
 */
export abstract class Disposable implements DisposableLike {
  private readonly registered: DisposableLike[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Keeps `disposable` until this object is disposed; registering after disposal disposes at once. */
  protected _register<T extends DisposableLike>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.registered.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Reverse order: later registrations may depend on earlier ones.
    for (const disposable of this.registered.splice(0).reverse()) {
      try {
        disposable.dispose();
      } catch {
        // One failing dispose must not keep the others alive.
      }
    }
  }
}

/** Wraps a function as a disposable (timers, ad-hoc cleanups). */
export function toDisposable(dispose: () => void): DisposableLike {
  let done = false;
  return {
    dispose(): void {
      if (done) return;
      done = true;
      dispose();
    },
  };
}
