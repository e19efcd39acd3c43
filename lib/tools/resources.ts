/**
 * The key of one running resource, typed by the value it holds. `T` exists only for the type
 * checker; two keys with the same `name` are the same slot.
 */
export interface ResourceKey<T> {
  readonly name: string;
  /** Never set: carries `T`. */
  readonly type?: T;
}

/** A typed key for `Resources`. */
export function resourceKey<T>(name: string): ResourceKey<T> {
  return { name };
}

/**
 * What tools leave running for the rest of a session (background jobs, the tmux terminal,
 * probes of this process's environment): never saved, ended as a whole by disposing. Unlike
 * `ToolContext.state`, nothing here survives a resume.
 */
export class Resources implements AsyncDisposable {
  readonly #items: Map<string, unknown>;

  /** `backing` is where values live; by default a map of their own. */
  constructor(backing: Map<string, unknown> = new Map()) {
    this.#items = backing;
  }

  /** The value under `key`, or undefined. */
  get<T>(key: ResourceKey<T>): T | undefined {
    return this.#items.get(key.name) as T | undefined;
  }

  /** Puts `value` under `key`; the caller has already ended whatever was there before. */
  set<T>(key: ResourceKey<T>, value: T): void {
    this.#items.set(key.name, value);
  }

  /** Removes `key` without ending its value. */
  delete(key: ResourceKey<unknown>): boolean {
    return this.#items.delete(key.name);
  }

  /**
   * Ends every value that is disposable, in insertion order, and removes it. One failing does
   * not stop the others; the first failure is thrown once all were tried.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    const failures: unknown[] = [];
    for (const [name, value] of [...this.#items]) {
      const end = disposerOf(value);
      if (!end) continue;
      this.#items.delete(name);
      try {
        await end();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) {
      throw new AggregateError(failures, "Cannot end every running resource of the session");
    }
  }
}

/**
 * The resources of `ctx`. A context built without `resources` (older callers and tests) keeps
 * them in `ctx.state` under their key names, as before the split: whoever owns that `state`
 * then ends them with `disposeState`, and `snapshotState` leaves them out.
 */
export function resourcesOf(
  ctx: { resources?: Resources; state: Map<string, unknown> },
): Resources {
  return ctx.resources ?? new Resources(ctx.state);
}

function disposerOf(value: unknown): (() => unknown) | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<AsyncDisposable & Disposable>;
  if (typeof v[Symbol.asyncDispose] === "function") return () => v[Symbol.asyncDispose]!();
  if (typeof v[Symbol.dispose] === "function") return () => v[Symbol.dispose]!();
  return undefined;
}
