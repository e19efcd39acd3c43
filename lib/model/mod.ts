export * from "./message.ts";
export * from "./stream.ts";
