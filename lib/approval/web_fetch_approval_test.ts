/**
 * Web fetch reaches the network from the agent's own process, so it goes through the approval
 * policy as a command that reaches the network does: under `untrusted` the user is asked, with
 * the URL, and a refusal means no request is made.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type ApprovalAnswer, approvalHook, type ApprovalQuestion } from "./hook.ts";
import { approvalDecision, type ApprovalPolicy, fetchUrlOf } from "./policy.ts";
import { loadHarness } from "../harness/load.ts";
import { approvalLink } from "../hooks/approval.ts";
import { runTurn } from "../loop/agent_loop.ts";
import { call, freshState, scriptedProvider } from "../loop/_test_loop.ts";
import { capabilityById } from "../tools/registry.ts";
import { webFetch, webFetchInput } from "../tools/web_fetch.ts";
import { tempWorkspace } from "../tools/_test_workspace.ts";

const HARNESSES = fileURLToPath(new URL("../../harnesses", import.meta.url));
const SANDBOX = { mode: "workspace-write" as const, enforced: true };

/** One turn of the opencode harness whose model calls `webfetch` on `url`. */
async function fetchTurn(policy: ApprovalPolicy, answers: ApprovalAnswer[], url: string) {
  const harness = await loadHarness("opencode", { builtinDir: HARNESSES });
  const { provider } = scriptedProvider([
    [call("c1", "webfetch", { url, format: "text" })],
    [{ type: "text", text: "done" }],
  ]);
  const asked: ApprovalQuestion[] = [];
  const beforeToolCall = approvalHook({
    policy,
    sandbox: SANDBOX,
    mutates: (id) => capabilityById(id)?.mutates ?? true,
    ask: ({ question }) => {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? "deny");
    },
  });
  await using ws = await tempWorkspace();
  ws.ctx.networkAllowed = true;
  ws.ctx.webFetch = { allowedHosts: ["127.0.0.1"] };
  const state = freshState();
  const signal = new AbortController().signal;
  await runTurn(state, {
    provider,
    harness,
    ctx: ws.ctx,
    emit: () => {},
    toolHooks: () => [approvalLink(beforeToolCall)],
    signal,
  });
  const result = state.messages.find((m) => m.role === "tool_result");
  const text = result?.blocks.map((b) => b.type === "text" ? b.text : "").join("") ?? "";
  return { asked, text };
}

async function withPage(body: (url: string, hits: () => number) => Promise<void>) {
  let hits = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return new Response("page body", { headers: { "content-type": "text/plain" } });
  });
  await body(`http://127.0.0.1:${server.addr.port}/doc`, () => hits);
}

Deno.test("web fetch asks under untrusted, naming the URL, and a refusal sends nothing", async () => {
  await withPage(async (url, hits) => {
    const refused = await fetchTurn("untrusted", ["deny"], url);
    assert.equal(refused.asked.length, 1);
    assert.equal(refused.asked[0].capability, "web.fetch");
    assert.equal(refused.asked[0].subject, url);
    assert.equal(
      refused.asked[0].reason,
      "approval_policy is untrusted and it reaches the network",
    );
    assert.equal(refused.asked[0].unsandboxed, false);
    assert.match(refused.text, /The user refused to run webfetch/);
    assert.equal(hits(), 0, "no request before the user approves");
    const approved = await fetchTurn("untrusted", ["once"], url);
    assert.equal(approved.asked.length, 1);
    assert.match(approved.text, /page body/);
    assert.equal(hits(), 1);
  });
});

Deno.test("web fetch runs without a question under on-request, on-failure and never (control)", async () => {
  await withPage(async (url, hits) => {
    for (const policy of ["on-request", "on-failure", "never"] as const) {
      const { asked, text } = await fetchTurn(policy, [], url);
      assert.equal(asked.length, 0, policy);
      assert.match(text, /page body/, policy);
    }
    assert.equal(hits(), 3);
  });
});

Deno.test("approvalDecision() asks before a web fetch only under untrusted", () => {
  const decide = (policy: ApprovalPolicy) =>
    approvalDecision(policy, {
      capability: "web.fetch",
      mutates: false,
      input: { url: "https://example.com/" },
      sandbox: SANDBOX,
    }).decision;
  assert.equal(decide("untrusted"), "ask");
  assert.equal(decide("on-request"), "allow");
  assert.equal(decide("on-failure"), "allow");
  assert.equal(decide("never"), "allow");
});

Deno.test("the approval question names the URL web fetch requests", async () => {
  const inputs = [
    { url: "http://2130706433:8080/a b" },
    { url: "https://Example.COM/x?y=1" },
    { prompt: "Summarise https://example.com/guide, then http://other.example/" },
    { url: "https://example.com/first", prompt: "see https://example.com/second" },
  ];
  await using ws = await tempWorkspace();
  ws.ctx.networkAllowed = true;
  // An unresolvable name stops every fetch after it has picked its URL: no request is made.
  ws.ctx.webFetch = {
    lookup: (host) => Promise.reject(new Error(`no lookup in this test: ${host}`)),
  };
  for (const input of inputs) {
    const wanted = fetchUrlOf(input);
    const err = await webFetch.run(webFetchInput.parse(input), ws.ctx).catch((e) => e);
    assert.ok(err instanceof Error);
    assert.ok(err.message.includes(`"${wanted}"`), `${err.message} names ${wanted}`);
  }
  assert.equal(fetchUrlOf(inputs[0]), "http://127.0.0.1:8080/a%20b");
  assert.equal(fetchUrlOf(inputs[2]), "https://example.com/guide,");
});
