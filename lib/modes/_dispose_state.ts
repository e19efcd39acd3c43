/** Ends what tools left running in session state (background jobs, terminals): every value
 * that is disposable is disposed, in insertion order. */
export async function disposeState(state: Map<string, unknown>): Promise<void> {
  for (const value of state.values()) {
    if (typeof value !== "object" || value === null) continue;
    const v = value as Partial<AsyncDisposable & Disposable>;
    if (typeof v[Symbol.asyncDispose] === "function") await v[Symbol.asyncDispose]!();
    else if (typeof v[Symbol.dispose] === "function") v[Symbol.dispose]!();
  }
}
