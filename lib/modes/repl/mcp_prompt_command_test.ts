import assert from "node:assert/strict";
import type { Session } from "../../session/types.ts";
import { fakeMcpHub, type FakeMcpServer } from "../../tools/_test_mcp_hub.ts";
import { makeStyle } from "../term/style.ts";
import { type CommandContext, type CommandResult, runCommand } from "./commands.ts";
import { promptArguments, splitWords } from "./mcp_prompt_command.ts";

const SERVERS: FakeMcpServer[] = [
  {
    id: "docs",
    prompts: [
      {
        name: "review",
        description: "Review a pull request\nin depth",
        arguments: [
          { name: "pr", description: "Pull request number", required: true },
          { name: "focus" },
        ],
        text: (args) => `Review PR ${args.pr}${args.focus ? ` for ${args.focus}` : ""}.`,
      },
      { name: "hello", arguments: [], text: () => "Say hello." },
      { name: "blank", arguments: [], text: () => "  " },
    ],
  },
  {
    id: "my docs",
    prompts: [{
      name: "code.tour",
      arguments: [{ name: "topic", required: true }],
      text: (args) => `Tour of ${args.topic}`,
    }],
  },
  { id: "slow", status: "starting", prompts: [] },
];

/** Runs `line` as a REPL command on a session with `servers`; what it returns and printed. */
async function run(line: string, servers = SERVERS) {
  const hub = fakeMcpHub(servers);
  const printed: string[] = [];
  const ctx = {
    session: () => ({ mcp: hub }) as unknown as Session,
    print: (lines: string[]) => printed.push(...lines),
    style: makeStyle(false),
    interruptible: <T>(task: (signal: AbortSignal) => Promise<T>) =>
      task(new AbortController().signal),
  } as unknown as CommandContext;
  let result: CommandResult;
  let error: (Error & { hint?: string }) | undefined;
  try {
    result = await runCommand(line, ctx);
  } catch (e) {
    error = e as Error;
  }
  return { result, error, printed, calls: hub.calls };
}

Deno.test("/mcp__SERVER__PROMPT sends the server's prompt, words mapped to its arguments in order", async () => {
  const { result, calls } = await run('/mcp__docs__review 42 "security and style"');
  assert.deepEqual(result, { prompt: "Review PR 42 for security and style." });
  assert.deepEqual(calls, [
    "prompts/list",
    'prompts/get docs review {"pr":"42","focus":"security and style"}',
  ]);
  const rest = await run("/MCP__Docs__Review 7 the error handling");
  assert.deepEqual(rest.result, { prompt: "Review PR 7 for the error handling." });
  assert.deepEqual((await run("/mcp__docs__review 7")).result, { prompt: "Review PR 7." });
});

Deno.test("/mcp__SERVER__PROMPT names are made safe as Claude Code makes them", async () => {
  const { result, calls } = await run("/mcp__my_docs__code_tour the build");
  assert.deepEqual(result, { prompt: "Tour of the build" });
  assert.equal(calls[1], 'prompts/get my docs code.tour {"topic":"the build"}');
});

Deno.test("/mcp__SERVER__PROMPT without a required argument prints its usage and sends nothing", async () => {
  const { result, printed, calls } = await run("/mcp__docs__review");
  assert.equal(result, undefined);
  assert.deepEqual(printed, [
    "Missing argument pr for /mcp__docs__review",
    "Usage: /mcp__docs__review <pr> [focus]",
    "  pr: Pull request number",
  ]);
  assert.deepEqual(calls, ["prompts/list"]);
  const extra = await run("/mcp__docs__hello there");
  assert.equal(extra.result, undefined);
  assert.deepEqual(extra.printed, [
    "/mcp__docs__hello takes no arguments",
    "Usage: /mcp__docs__hello",
  ]);
});

Deno.test("/mcp__SERVER__PROMPT: an unknown prompt, a server not ready, an empty prompt", async () => {
  const typo = await run("/mcp__docs__reveiw 1");
  assert.equal(
    typo.error?.message,
    'Unknown command "/mcp__docs__reveiw": no MCP server offers that prompt',
  );
  assert.equal(typo.error?.hint, "Did you mean /mcp__docs__review?");
  const slow = await run("/mcp__slow__anything");
  assert.equal(slow.error?.message, 'MCP server "slow" is still starting');
  assert.equal(slow.error?.hint, "Try again in a moment; /mcp shows the servers");
  const blank = await run("/mcp__docs__blank");
  assert.equal(blank.result, undefined);
  assert.deepEqual(blank.printed, ["The prompt blank of docs is empty; nothing was sent"]);
});

Deno.test("/help lists the MCP prompt commands, and nothing more without servers", async () => {
  const { printed } = await run("/help");
  assert.deepEqual(printed.filter((l) => l.startsWith("/mcp__")), [
    "/mcp__docs__review        Review a pull request (pr focus?)",
    "/mcp__docs__hello         prompt hello of docs",
    "/mcp__docs__blank         prompt blank of docs",
    "/mcp__my_docs__code_tour  prompt code.tour of my docs (topic)",
  ]);
  assert.ok(
    printed.includes("MCP prompts: /mcp__SERVER__PROMPT ARGS sends the server's prompt as yours"),
  );
  const none = await run("/help", []);
  assert.equal(none.printed.some((l) => l.includes("mcp__")), false);
});

Deno.test("splitWords() and promptArguments() map words to arguments, the last taking the rest", () => {
  assert.deepEqual(splitWords(' a "b c"  d ""'), ["a", "b c", "d", ""]);
  const prompt = {
    server: "s",
    name: "p",
    arguments: [{ name: "x", required: true }, { name: "y", required: true }, { name: "z" }],
  };
  assert.deepEqual(promptArguments(prompt, ["1", "2", "3", "4"]), {
    args: { x: "1", y: "2", z: "3 4" },
  });
  assert.deepEqual(promptArguments(prompt, ["1"]), {
    problem: "Missing argument y for /mcp__s__p",
  });
  assert.deepEqual(promptArguments(prompt, []), {
    problem: "Missing arguments x, y for /mcp__s__p",
  });
});
