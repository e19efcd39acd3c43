/** What a placeholder name resolves to: `undefined` when the name is not known at all. */
export type Lookup = (name: string) => { value: unknown } | undefined;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills `{name}` placeholders line by line. A line whose placeholder resolves to null or
 * undefined is left out (optional lines, such as an exit code that does not exist); a
 * placeholder the lookup does not know stays as written, so other braces pass through.
 */
export function fillTemplate(template: string, lookup: Lookup): string {
  const out: string[] = [];
  for (const line of template.split("\n")) {
    let drop = false;
    const filled = line.replace(PLACEHOLDER, (whole, name: string) => {
      const hit = lookup(name);
      if (!hit) return whole;
      if (hit.value === null || hit.value === undefined) drop = true;
      return formatValue(hit.value);
    });
    if (!drop) out.push(filled);
  }
  return out.join("\n");
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "";
  return JSON.stringify(value);
}
