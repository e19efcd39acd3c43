/**
 * Test helper for the topic-coverage test: a harness's first request from a real session against
 * the scripted provider, the texts the model reads in it, and the strict reader of
 * `harnesses/<id>/topics.toml`.
 */
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { openSession } from "../lib/session/open.ts";
import type { WireApi } from "../lib/providers/types.ts";
import { startFakeProvider } from "./fake_provider/server.ts";
import { requestWorkspace } from "./_request_workspace.ts";

type Json = Record<string, unknown>;

/** The user's prompt of the first request; it is not counted as guidance. */
export const PROMPT = "say OK";

const README = { "README.md": "# habits\n" };

/** The body of the first request `harness` sends on `wire` for `model`, from a real session. */
export async function firstRequestBody(
  harness: string,
  wire: WireApi,
  model: string,
): Promise<Json> {
  await using fake = startFakeProvider([{ reply: { text: "OK" } }]);
  // Anthropic clients append /v1/messages to the origin; the others take the /v1 base URL.
  const base = wire === "messages" ? fake.origin : fake.baseUrl;
  // A git repository with one commit and no project instructions or skills (as the vendor
  // captures ran).
  await using ws = await requestWorkspace({
    prefix: "oi_topics_",
    files: README,
    model,
    harness,
    wire,
    baseUrl: base,
  });
  {
    await using session = await openSession(
      { cwd: ws.cwd, sandbox: "danger-full-access", approval: "never" },
      { onEvent: () => {} },
      { env: ws.env },
    );
    await session.prompt(PROMPT, new AbortController().signal);
  }
  assert.ok(fake.requests.length >= 1, JSON.stringify(fake.failures));
  return fake.requests[0].body as Json;
}

/** What the model reads around the user's prompt, and how many characters of it count. */
export interface ModelTexts {
  /** Top-level tool descriptions, system/developer texts and context parts; the measured part. */
  counted: string[];
  /**
   * Everything the keywords may be found in: `counted` plus tool names and schemas, in lower case
   * with white space squeezed.
   */
  haystack: string;
}

/** Keys under which a tool's parameter schema sits (its descriptions are not counted). */
const SCHEMA_KEYS = new Set([
  "parameters",
  "input_schema",
  "parametersJsonSchema",
  "parameters_json_schema",
  "schema",
  "format",
]);

/** Collects the texts of a request body on any wire (Messages, Chat, Responses, Gemini). */
export function modelTexts(body: Json): ModelTexts {
  const counted: string[] = [];
  const toolsJson: string[] = [];
  for (const key of ["system", "instructions", "systemInstruction"]) {
    if (body[key] !== undefined) counted.push(...strings(body[key]));
  }
  const turns = [body.messages, body.input, body.contents].filter(Array.isArray).flat();
  for (const turn of turns as Json[]) {
    if (turn && typeof turn === "object" && Array.isArray(turn.tools)) {
      // Codex code mode carries its tools in an input item.
      counted.push(...toolDescriptions(turn.tools));
      toolsJson.push(JSON.stringify(turn.tools));
      continue;
    }
    counted.push(...strings(turn).map(withoutPrompt).filter((t) => t.length > 0));
  }
  if (Array.isArray(body.tools)) {
    counted.push(...toolDescriptions(body.tools));
    toolsJson.push(JSON.stringify(body.tools));
  }
  return { counted, haystack: squeeze([...counted, ...toolsJson].join("\n")) };
}

/** Lower case with every run of white space one space, so a keyword may span a line break. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, " ").toLowerCase();
}

function withoutPrompt(text: string): string {
  return text === PROMPT ? "" : text.endsWith(PROMPT) ? text.slice(0, -PROMPT.length) : text;
}

/** Text strings of a message, part list or system value (`text`/`content` strings, or itself). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (!value || typeof value !== "object") return [];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value as Json)) {
    if (key === "text" || key === "content" || key === "parts") out.push(...strings(v));
  }
  return out;
}

/** The `description` strings of tools (and of namespaced or wrapped tools), not of parameters. */
function toolDescriptions(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(toolDescriptions);
  if (!value || typeof value !== "object") return [];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value as Json)) {
    if (SCHEMA_KEYS.has(key)) continue;
    if (key === "description" && typeof v === "string") out.push(v);
    else out.push(...toolDescriptions(v));
  }
  return out;
}

/** One topic the vendor's first request covers. */
export interface Topic {
  name: string;
  where: "tools" | "system" | "context";
  keywords: string[];
}

/** A harness's `topics.toml`. */
export interface Topics {
  vendor: string;
  vendorChars: number;
  /** A lean surface keeps its own budget: the half-to-whole band is not checked. */
  lean: boolean;
  /** The model the first request is built for; default `test-model`. */
  model: string;
  topics: Topic[];
}

const TOP_KEYS = new Set(["vendor", "vendor_chars", "lean", "model", "topic"]);
const TOPIC_KEYS = new Set(["name", "where", "keywords"]);
const WHERE = new Set(["tools", "system", "context"]);

/** Reads `topics.toml` text strictly; every problem names the file, the key and the fix. */
export function parseTopics(text: string, file: string): Topics {
  let raw: Json;
  try {
    raw = parseToml(text) as Json;
  } catch (e) {
    throw new Error(`${file}: not valid TOML (${(e as Error).message.split("\n")[0]})`);
  }
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}`);
  };
  for (const key of Object.keys(raw)) {
    if (!TOP_KEYS.has(key)) fail(`unknown key "${key}" (expected ${[...TOP_KEYS].join(", ")})`);
  }
  if (typeof raw.vendor !== "string" || !raw.vendor.trim()) {
    fail(`"vendor" must name the CLI and version, e.g. "claude-code 2.1.332"`);
  }
  const chars = raw.vendor_chars;
  if (typeof chars !== "number" || !Number.isInteger(chars) || chars <= 0) {
    fail(`"vendor_chars" must be a positive integer (the vendor's measured characters)`);
  }
  if (raw.lean !== undefined && typeof raw.lean !== "boolean") fail(`"lean" must be true or false`);
  if (raw.model !== undefined && (typeof raw.model !== "string" || !raw.model)) {
    fail(`"model" must be a model id string`);
  }
  if (!Array.isArray(raw.topic) || raw.topic.length === 0) {
    fail(`no [[topic]] tables: list the vendor's topics`);
  }
  const topics = (raw.topic as Json[]).map((t, i) =>
    parseTopic(t, (w) => fail(`topic ${i + 1}: ${w}`))
  );
  return {
    vendor: raw.vendor as string,
    vendorChars: chars as number,
    lean: raw.lean === true,
    model: (raw.model as string | undefined) ?? "test-model",
    topics,
  };
}

function parseTopic(t: Json, fail: (what: string) => never): Topic {
  for (const key of Object.keys(t)) {
    if (!TOPIC_KEYS.has(key)) fail(`unknown key "${key}" (expected name, where, keywords)`);
  }
  if (typeof t.name !== "string" || !t.name.trim()) fail(`"name" must be a non-empty string`);
  const label = `"${t.name}"`;
  if (typeof t.where !== "string" || !WHERE.has(t.where)) {
    fail(`${label}: "where" must be "tools", "system" or "context"`);
  }
  const kw = t.keywords;
  if (!Array.isArray(kw) || kw.length === 0) {
    fail(`${label}: "keywords" must list at least one keyword`);
  }
  for (const k of kw as unknown[]) {
    if (typeof k !== "string" || !k.trim()) {
      fail(`${label}: every keyword must be a non-empty string`);
    }
  }
  return { name: t.name as string, where: t.where as Topic["where"], keywords: kw as string[] };
}

/** Topics whose keywords do not all appear in `haystack` (lower case), each with what is missing. */
export function missingTopics(topics: Topic[], haystack: string): string[] {
  const out: string[] = [];
  for (const t of topics) {
    const missing = t.keywords.filter((k) => !haystack.includes(squeeze(k)));
    if (missing.length) {
      out.push(`"${t.name}" (${t.where}): ${missing.map((k) => `"${k}"`).join(", ")}`);
    }
  }
  return out;
}
