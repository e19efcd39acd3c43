/**
 * The dialect fixtures (tests/fixtures/dialects/*.json): text as each model family writes it,
 * written from its published chat template, with the advertised tools and what repair must make
 * of it. Each case is also streamed through the holdback in small pieces: none of the dialect's
 * markup may be shown, and what is shown in the end is the visible text (space at its end aside).
 */
import assert from "node:assert/strict";
import type { Block, ToolDeclaration } from "../../model/message.ts";
import { CallMarkupHoldback } from "../_call_markup_holdback.ts";
import { repairToolCalls } from "../tool_call_repair.ts";

interface Fixture {
  dialect: string;
  source: string;
  /** Text that must never reach the stream when a call was recovered. */
  markup: string[];
  tools: ToolDeclaration[];
  cases: Array<{
    name: string;
    text: string;
    /** Empty: the text is not a call and stays as it is. */
    calls: Array<{ name: string; args?: unknown; rawArgs?: string }>;
    visible?: string;
    thinking?: string;
  }>;
}

const DIR = new URL("../../../tests/fixtures/dialects/", import.meta.url);
const DIALECTS = ["harmony", "deepseek", "glm", "llama", "kimi"];

async function fixture(dialect: string): Promise<Fixture> {
  return JSON.parse(await Deno.readTextFile(new URL(`${dialect}.json`, DIR)));
}

/** What the stream shows of `text` fed in `size`-character pieces, then what `finish` adds. */
function streamed(text: string, visible: string, size: number): { during: string; all: string } {
  const holdback = new CallMarkupHoldback();
  let during = "";
  for (let i = 0; i < text.length; i += size) during += holdback.push(text.slice(i, i + size));
  return { during, all: during + holdback.finish(visible) };
}

function textOf(blocks: Block[], type: "text" | "thinking"): string {
  return blocks.flatMap((b) => b.type === type ? [b.text] : []).join("");
}

for (const dialect of DIALECTS) {
  Deno.test(`the ${dialect} fixtures are repaired as written and never stream their markup`, async () => {
    const f = await fixture(dialect);
    assert.ok(f.cases.some((c) => c.calls.length) && f.cases.some((c) => !c.calls.length));
    for (const c of f.cases) {
      const result = await repairToolCalls([{ type: "text", text: c.text }], f.tools, () => "id");
      const visible = c.calls.length ? c.visible ?? "" : c.text;
      if (!c.calls.length) {
        assert.equal(result, undefined, `${c.name}: left as text`);
      } else {
        assert.ok(result, `${c.name}: nothing recovered`);
        const calls = result.blocks.flatMap((b) =>
          b.type === "tool_call"
            ? [
              b.rawArgs === undefined
                ? { name: b.name, args: b.args }
                : { name: b.name, rawArgs: b.rawArgs },
            ]
            : []
        );
        assert.deepEqual(calls, c.calls, c.name);
        assert.deepEqual(result.formats, c.calls.map(() => dialect), c.name);
        assert.equal(textOf(result.blocks, "text"), visible, `${c.name}: visible text`);
        assert.equal(textOf(result.blocks, "thinking"), c.thinking ?? "", `${c.name}: thinking`);
      }
      for (const size of [1, 7]) {
        const shown = streamed(c.text, visible, size);
        // Space before the markup may go out before the markup is recognised.
        assert.equal(shown.all.trimEnd(), visible, `${c.name}: streamed in pieces of ${size}`);
        for (const token of c.calls.length ? f.markup : []) {
          assert.ok(!shown.all.includes(token), `${c.name}: ${token} streamed`);
        }
      }
    }
  });
}
