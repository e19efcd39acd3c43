/**
 * `topic.update`: the topic the model is working on, published to the user as the call's result
 * (Gemini CLI's update_topic). A call with a title starts a new topic (a phase of the work); one
 * without keeps the current title and states only the immediate intent.
 */
import * as z from "zod";
import { defineCapability } from "./capability.ts";

/** Key of the current topic in `ToolContext.state` (not kept across a resume). */
const TOPIC_STATE_KEY = "topic";

/** Input of `topic.update`. */
const topicUpdateInput = z.object({
  strategic_intent: z.string().min(1).describe("One sentence: what the model does next, and why"),
  title: z.string().optional().describe("Title of a new topic; absent keeps the current one"),
  summary: z.string().optional()
    .describe("On a new topic: what the last one achieved and what this one sets out to do"),
});

/** Result of `topic.update`. */
export interface TopicUpdateOutput {
  /** The current topic's title; "" before any was given. */
  title: string;
  summary: string;
  strategicIntent: string;
  /** Whether this call started a new topic (a title other than the current one). */
  newTopic: boolean;
}

/** Records the topic and intent; nothing else changes. */
export const topicUpdate = defineCapability({
  id: "topic.update",
  input: topicUpdateInput,
  mutates: false,
  run(input, ctx): Promise<TopicUpdateOutput> {
    const current = ctx.state.get(TOPIC_STATE_KEY);
    const before = typeof current === "string" ? current : "";
    const title = input.title?.trim() || before;
    ctx.state.set(TOPIC_STATE_KEY, title);
    return Promise.resolve({
      title,
      summary: input.summary ?? "",
      strategicIntent: input.strategic_intent,
      newTopic: title !== before,
    });
  },
});
