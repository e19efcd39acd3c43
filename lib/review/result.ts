/**
 * A review's answer: the JSON object the reviewer prompt asks for, read leniently (the whole text
 * as JSON, else its outermost `{…}`, else plain text), and the text a person reads.
 */
import { isAbsolute, relative, resolve } from "node:path";

/** One problem the reviewer found. */
export interface ReviewFinding {
  title: string;
  body: string;
  /** 0 (P0, most urgent) to 3. */
  priority?: number;
  confidence?: number;
  location?: { path: string; start: number; end: number };
}

/** What the reviewer answered. `plain` holds a reply that was not the JSON object. */
export interface Review {
  findings: ReviewFinding[];
  /** "patch is correct" or "patch is incorrect". */
  correctness?: string;
  explanation: string;
  confidence?: number;
  plain?: string;
}

/** Reads the reviewer's final text. */
export function parseReview(text: string): Review {
  const whole = objectIn(text.trim());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  const found = whole ??
    (first !== -1 && last > first ? objectIn(text.slice(first, last + 1)) : undefined);
  return found ?? { findings: [], explanation: "", plain: text };
}

/** The object when `text` is JSON shaped like a review, else undefined. */
function objectIn(text: string): Review | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const looksLikeReview = Array.isArray(value.findings) ||
    typeof value.overall_explanation === "string" || typeof value.overall_correctness === "string";
  if (!looksLikeReview) return undefined;
  const findings = Array.isArray(value.findings)
    ? value.findings.filter(isRecord).map(finding)
    : [];
  return {
    findings,
    correctness: stringOr(value.overall_correctness),
    explanation: stringOr(value.overall_explanation) ?? "",
    confidence: numberOr(value.overall_confidence_score),
  };
}

function finding(raw: Record<string, unknown>): ReviewFinding {
  let title = (stringOr(raw.title) ?? "").trim();
  let priority = numberOr(raw.priority);
  // Models trained on other reviewers put the tag in the title; it moves to `priority`.
  const tag = /^\[P([0-3])\]\s*/i.exec(title);
  if (tag) {
    title = title.slice(tag[0].length);
    priority ??= Number(tag[1]);
  }
  const place = isRecord(raw.code_location) ? raw.code_location : {};
  const path = stringOr(place.absolute_file_path) ?? stringOr(place.path);
  const range = isRecord(place.line_range) ? place.line_range : {};
  const start = numberOr(range.start);
  const end = numberOr(range.end) ?? start;
  return {
    title: title || "(untitled finding)",
    body: stringOr(raw.body) ?? "",
    ...(priority !== undefined && priority >= 0 && priority <= 3 ? { priority } : {}),
    ...(numberOr(raw.confidence_score) !== undefined
      ? { confidence: numberOr(raw.confidence_score) }
      : {}),
    ...(path ? { location: { path, start: start ?? 0, end: end ?? 0 } } : {}),
  };
}

/** What `renderReview` needs to show paths the short way. */
export interface RenderPlaces {
  /** Where relative paths in the answer start from. */
  cwd: string;
  /** The repository root: paths inside it are shown relative to it. */
  root?: string;
}

/**
 * The review as a person reads it: the explanation, each finding as
 * `path:start-end  [P1]  title` with its body indented, then the verdict. A plain-text answer is
 * returned as it is.
 */
export function renderReview(review: Review, places: RenderPlaces): string {
  if (review.plain !== undefined) return review.plain.trim();
  if (review.findings.length === 0 && !review.explanation.trim()) {
    return "Reviewer failed to output a response.";
  }
  const parts: string[] = [];
  if (review.explanation.trim()) parts.push(review.explanation.trim());
  for (const f of review.findings) {
    const head = [
      ...(f.location ? [`${shownPath(f.location.path, places)}${lineRange(f.location)}`] : []),
      ...(f.priority !== undefined ? [`[P${f.priority}]`] : []),
      f.title,
    ].join("  ");
    const body = f.body.trim().split("\n").map((line) => line.trim() ? `    ${line}` : "");
    parts.push([head, ...(f.body.trim() ? body : [])].join("\n"));
  }
  if (review.findings.length === 0) parts.push("No findings.");
  if (review.correctness) parts.push(`Verdict: ${review.correctness}${confidence(review)}`);
  return parts.join("\n\n");
}

function shownPath(path: string, places: RenderPlaces): string {
  const absolute = isAbsolute(path) ? path : resolve(places.cwd, path);
  if (!places.root) return absolute;
  const inside = relative(places.root, absolute);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : absolute;
}

/** `:start-end`, or nothing for a finding about a whole file (line 0). */
function lineRange(place: { start: number; end: number }): string {
  if (place.start <= 0) return "";
  return `:${place.start}-${Math.max(place.start, place.end)}`;
}

function confidence(review: Review): string {
  return review.confidence === undefined ? "" : ` (confidence ${review.confidence.toFixed(2)})`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
