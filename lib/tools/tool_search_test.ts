import assert from "node:assert/strict";
import { inProcessFs } from "../../sandbox/file_system.ts";
import { ToolError } from "../errors.ts";
import type { ToolContext } from "./capability.ts";
import {
  type CatalogEntry,
  searchCatalog,
  toolCall,
  type ToolCatalog,
  toolSearch,
} from "./tool_search.ts";

const entry = (name: string, description: string): CatalogEntry => ({
  name,
  description,
  parameters: { type: "object", properties: {} },
});

const ENTRIES = [
  entry("CronCreate", "Schedule a prompt to run on a cron schedule"),
  entry("NotebookEdit", "Replace or insert a cell in a Jupyter notebook"),
  entry("WebFetch", "Fetch a URL and summarise the page"),
  entry("web_search", "Search the web\nSecond line"),
];

function fakeCatalog() {
  const loads: string[][] = [];
  const calls: Array<{ name: string; args: unknown }> = [];
  const catalog: ToolCatalog = {
    list: () => ENTRIES,
    load(names) {
      loads.push(names);
      return names;
    },
    call(name, args) {
      calls.push({ name, args });
      return Promise.resolve(`ran ${name}`);
    },
  };
  return { catalog, loads, calls };
}

function ctxWith(catalog?: ToolCatalog): ToolContext {
  return {
    callId: "test_call",
    progress: () => {},
    cwd: "/",
    signal: new AbortController().signal,
    env: {},
    state: new Map(),
    fs: inProcessFs,
    toolCatalog: catalog,
  };
}

Deno.test("searchCatalog() selects exact names in the order given and reports unknown ones", () => {
  const hits = searchCatalog(ENTRIES, "select:WebFetch, notebookedit,Nope,WebFetch", 1);
  assert.deepEqual(hits.matches.map((e) => e.name), ["WebFetch", "NotebookEdit"]);
  assert.deepEqual(hits.missing, ["Nope"]);
});

Deno.test("searchCatalog() ranks name words above description text and honours max", () => {
  const hits = searchCatalog(ENTRIES, "web", 5);
  assert.deepEqual(hits.matches.map((e) => e.name), ["web_search", "WebFetch"]);
  assert.deepEqual(searchCatalog(ENTRIES, "web", 1).matches.map((e) => e.name), ["web_search"]);
  assert.deepEqual(searchCatalog(ENTRIES, "jupyter", 5).matches.map((e) => e.name), [
    "NotebookEdit",
  ]);
  assert.deepEqual(searchCatalog(ENTRIES, "zzz", 5).matches, []);
});

Deno.test("searchCatalog() drops tools that miss a +required keyword", () => {
  const hits = searchCatalog(ENTRIES, "+fetch web", 5);
  assert.deepEqual(hits.matches.map((e) => e.name), ["WebFetch"]);
});

Deno.test("toolSearch loads the matches and renders them for templates", async () => {
  const { catalog, loads } = fakeCatalog();
  const out = await toolSearch.run({ query: "select:web_search,Missing" }, ctxWith(catalog));
  assert.deepEqual(loads, [["web_search"]]);
  assert.deepEqual(out.loaded, ["web_search"]);
  assert.equal(out.count, 1);
  assert.equal(out.names, "web_search");
  assert.equal(out.output, "web_search: Search the web");
  assert.equal(out.missing, "Missing");
  assert.equal(JSON.parse(out.declarations)[0].name, "web_search");
});

Deno.test("toolSearch leaves tools unloaded when load is false", async () => {
  const { catalog, loads } = fakeCatalog();
  const out = await toolSearch.run({ query: "cron", load: false }, ctxWith(catalog));
  assert.deepEqual(loads, []);
  assert.deepEqual(out.loaded, []);
  assert.equal(out.names, "CronCreate");
  assert.equal(out.missing, null);
});

Deno.test("toolCall passes name and arguments to the catalog", async () => {
  const { catalog, calls } = fakeCatalog();
  const out = await toolCall.run({ name: "WebFetch", arguments: { url: "x" } }, ctxWith(catalog));
  assert.deepEqual(out, { output: "ran WebFetch" });
  assert.deepEqual(calls, [{ name: "WebFetch", args: { url: "x" } }]);
});

Deno.test("toolSearch and toolCall fail with a ToolError when the session has no catalog", async () => {
  await assert.rejects(toolSearch.run({ query: "x" }, ctxWith()), ToolError);
  await assert.rejects(toolCall.run({ name: "x", arguments: {} }, ctxWith()), ToolError);
});
