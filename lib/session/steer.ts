/**
 * Messages the user sends into a running turn ("steering", issue 34 item 7): each waits until
 * the loop is about to make its next model request, then goes into the history as a user
 * message (and so into the session file) right before that request.
 */
import type { Message } from "../model/message.ts";

interface Waiting {
  text: string;
  landed: (landed: boolean) => void;
}

/** The messages sent into the running turn that have not reached the model yet. */
export class SteerInbox {
  #waiting: Waiting[] = [];

  /**
   * Keeps `text` for the next request of the running turn. Resolves to true once it is in the
   * history, to false when the turn ended first (or none runs): the caller sends it as a prompt.
   */
  add(text: string, running: boolean): Promise<boolean> {
    if (!running || text.trim() === "") return Promise.resolve(false);
    const { promise, resolve } = Promise.withResolvers<boolean>();
    this.#waiting.push({ text, landed: resolve });
    return promise;
  }

  /** Appends what waits to `messages` (the request about to be made carries it). */
  deliver(messages: Message[]): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { text, landed } of waiting) {
      messages.push({ role: "user", blocks: [{ type: "text", text }] });
      landed(true);
    }
  }

  /** The turn ended: what still waits did not reach it. */
  endTurn(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { landed } of waiting) landed(false);
  }
}
