/** What the loop guard stopped a turn on, in words for people, whatever the front end. */
import type { LoopDescription, RepeatedCall } from "./events.ts";

/** `call` (a `repeated_call` outcome's) in words. */
export function describeLoop(call: RepeatedCall): LoopDescription {
  const n = call.repeats;
  const first = call.error.split("\n")[0];
  switch (call.shape ?? "failing_call") {
    case "failing_call": {
      const headline = `the same failing call ${n} times in a row`;
      return {
        headline,
        message: `The model made ${headline}: ${callText(call.name, call.args)}`,
        detail: `It got the same error each time${first ? ` (${first})` : ""}`,
        setting: "loop_guard.repeats sets how many repeats are allowed",
      };
    }
    case "format_error": {
      const headline = `${n} replies in a row without a usable command`;
      return {
        headline,
        message: `The model wrote ${headline}`,
        detail: first ? `Each time it was told: ${withoutStop(first)}` : "",
        setting: "loop_guard.format_errors sets how many such replies are allowed",
      };
    }
    case "cycle":
      return describeCycle(call);
    case "same_read": {
      const headline = `the same read-only call ${n} times in a row with the same result`;
      return {
        headline,
        message: `The model made ${headline}: ${callText(call.name, call.args)}`,
        detail: "",
        setting: "loop_guard.same_read_repeats sets how many repeats are allowed",
      };
    }
    case "no_progress": {
      const headline = `${n} requests in a row without reading, editing or running anything new`;
      const last = call.name ? ` (the last call: ${callText(call.name, call.args)})` : "";
      return {
        headline,
        message: `The model made ${headline}${last}`,
        detail: "",
        setting: "loop_guard.no_progress_steps sets how many such requests are allowed",
      };
    }
    case "repeated_span": {
      const where = call.name === "reasoning" ? "its reasoning" : "its replies";
      return {
        headline: `${n} replies cut off for repeating the same text`,
        message: `The model repeated the same text over and over in ${where}: ${n} replies ` +
          "were cut off",
        detail: first ? `It kept writing "${clip(withoutStop(first), 80)}"` : "",
        setting: "loop_guard.repeated_span_repeats sets how many repeats cut a reply off",
      };
    }
  }
}

function describeCycle(call: RepeatedCall): LoopDescription {
  const args = Array.isArray(call.args) ? call.args : [];
  const names = call.name.split(" → ");
  const headline = `the same ${names.length} calls ${call.repeats} times over with the same ` +
    "results";
  const calls = names.map((name, i) => callText(name, args[i])).join(" → ");
  const first = call.error.split("\n")[0];
  return {
    headline,
    message: `The model went through ${headline}: ${clip(calls, 240)}`,
    detail: first ? `One of them failed each time (${first})` : "",
    setting: "loop_guard.cycle_repeats sets how many rounds are allowed",
  };
}

/** A call as one line: the tool and its arguments, cut to a readable length. */
function callText(name: string, args: unknown): string {
  return clip(`${name}${args === undefined ? "" : ` ${JSON.stringify(args)}`}`, 160);
}

/** A sentence without its final period, to go before one of ours. */
function withoutStop(text: string): string {
  return text.replace(/\.$/, "");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
