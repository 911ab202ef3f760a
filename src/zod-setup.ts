/**
 * How zod parses in this bundle, set before any schema is built (zod reads it as it builds each
 * one): imported first by the CLI. zod compiles a parser of its own for each object schema (with
 * `new Function`) on its first parse. The MCP server parses every call and keeps them; a command
 * parses a few values once and exits, and compiling them costs it more than it saves (about 4 ms
 * of `agentboard next`). The build says which bundle this is; run from the sources, zod's default.
 */
import * as z from 'zod';

declare const AGENTBOARD_ZOD_JIT: boolean | undefined;

if (typeof AGENTBOARD_ZOD_JIT !== 'undefined') z.config({ jitless: !AGENTBOARD_ZOD_JIT });
