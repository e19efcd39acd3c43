import { Resources } from "../tools/resources.ts";

/**
 * Ends what tools left running: `resources` as a whole, then anything disposable that a context
 * without `resources` left in `state` (see `resourcesOf`), in insertion order. Every value is
 * tried; the first failure is thrown after.
 */
export async function disposeState(
  state: Map<string, unknown>,
  resources?: Resources,
): Promise<void> {
  const failures: unknown[] = [];
  await resources?.[Symbol.asyncDispose]().catch((error) => failures.push(error));
  await new Resources(state)[Symbol.asyncDispose]().catch((error) => failures.push(error));
  if (failures.length) throw failures[0];
}
