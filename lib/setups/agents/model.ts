/**
 * The model a defined sub-agent runs on: the one it names where the session's provider has it
 * (Claude Code's `sonnet`, `opus`, `haiku` and `fable` aliases pick the provider's newest model
 * of that family from the catalog; opencode's `provider/model` is looked up by its model part),
 * else the session's own, with a note saying so.
 */

const ALIASES = new Set(["sonnet", "opus", "haiku", "fable"]);

/** The model for a sub-agent that asks for `asked`, in a session on `session`. */
export function agentModel(
  asked: string | undefined,
  session: string,
  /** The ids of the models the session's provider offers, per the catalog (none when unknown). */
  offered: readonly string[],
): { model: string; note?: string } {
  if (!asked) return { model: session };
  const wanted = asked.toLowerCase();
  if (ALIASES.has(wanted)) {
    if (session.toLowerCase().includes(wanted)) return { model: session };
    const family = offered.filter((id) => id.toLowerCase().includes(wanted))
      .sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
    if (family[0]) return { model: family[0] };
  } else {
    const tail = wanted.slice(wanted.lastIndexOf("/") + 1);
    const found = offered.find((id) => [wanted, tail].includes(id.toLowerCase()));
    if (found) return { model: found };
    if ([wanted, tail].includes(session.toLowerCase())) return { model: session };
  }
  return {
    model: session,
    note: `it asks for the model "${asked}", which this provider does not offer: ` +
      `it runs on the session's model (${session})`,
  };
}
