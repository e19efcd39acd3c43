/** Dotted TOML key paths (`model_providers.x."base_url"`) and TOML value rendering. */

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const SEGMENT_SOURCE = String.raw`\s*([A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')\s*(\.|$)`;

/** Splits a dotted TOML key path into its segments; undefined when the text is not a key path. */
export function splitKeyPath(text: string): string[] | undefined {
  const segments: string[] = [];
  const regex = new RegExp(SEGMENT_SOURCE, "y");
  while (regex.lastIndex < text.length) {
    const match = regex.exec(text);
    if (!match) return undefined;
    const segment = unquote(match[1]);
    if (segment === undefined) return undefined;
    segments.push(segment);
    if (match[2] === "") break;
    if (regex.lastIndex >= text.length) return undefined;
  }
  return segments.length > 0 && regex.lastIndex >= text.length ? segments : undefined;
}

function unquote(segment: string): string | undefined {
  if (segment.startsWith("'")) return segment.slice(1, -1);
  if (!segment.startsWith('"')) return segment;
  try {
    return JSON.parse(segment.replace(/\\U([0-9A-Fa-f]{8})/g, (_, hex) => {
      return JSON.stringify(String.fromCodePoint(parseInt(hex, 16))).slice(1, -1);
    }));
  } catch {
    return undefined;
  }
}

/** Joins segments into a dotted key path, quoting segments that are not bare keys. */
export function joinKeyPath(segments: readonly string[]): string {
  return segments.map((s) => (BARE_KEY.test(s) ? s : JSON.stringify(s))).join(".");
}

/** Renders a value as TOML: strings quoted, arrays in brackets, tables inline. */
export function formatTomlValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "nan";
    if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
    return String(value);
  }
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[${value.map(formatTomlValue).join(", ")}]`;
  if (value instanceof Date) return value.toISOString();
  if (isTable(value)) {
    const parts = Object.entries(value).map(([k, v]) =>
      `${joinKeyPath([k])} = ${formatTomlValue(v)}`
    );
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }
  return String(value);
}

/** True for a TOML table: a plain object, not an array or a date. */
export function isTable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
