/**
 * Copies of a turn's tool context that stay live: the session's context reads some fields at each
 * call (the working directory and sandbox, which a worktree tool may change during the turn)
 * through getters, which a spread would read once.
 */

/** `ctx` with `extra` over it, its getters kept as getters. */
export function contextWith<T extends object>(ctx: T, extra: Partial<T>): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as T;
  return Object.assign(copy, extra);
}
