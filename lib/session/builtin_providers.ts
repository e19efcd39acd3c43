/**
 * The built-in provider table for front ends, which reach lib/providers only through lib/session
 * (eval's `--harbor-config` names the providers a Harbor container can reach, and their keys).
 */
export { BUILTIN_PROVIDERS, builtinProvider } from "../providers/builtin.ts";
