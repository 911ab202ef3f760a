/**
 * Tokens and cost, read from the JSON lines the agent CLIs print. Each CLI reports usage its own
 * way; a line that is not one of these is not usage. Claude Code reports cost; Codex and Gemini
 * CLI report tokens only.
 */
import { costOf, emptyUsage, tokenCount as num, type Usage } from '../store/runs.js';

/** Reads one line of an agent's stdout into the usage so far; returns true when it was a usage report. */
export function readUsageLine(line: string, usage: Usage): boolean {
  // Only JSON objects can be usage; most lines of a transcript are not worth parsing.
  if (line.charCodeAt(0) !== 123 || !line.includes('"type"')) return false;
  let event: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    event = JSON.parse(line);
  } catch {
    return false;
  }
  if (event.type === 'result' && event.usage && typeof event.usage === 'object') {
    // Claude Code: the final event holds the whole session's usage and its cost.
    const u = event.usage;
    usage.input_tokens = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
    usage.cached_input_tokens = num(u.cache_read_input_tokens);
    usage.output_tokens = num(u.output_tokens);
    if (costOf(event.total_cost_usd) !== null) usage.cost_usd = event.total_cost_usd;
    return true;
  }
  if (event.type === 'turn.completed' && event.usage && typeof event.usage === 'object') {
    // Codex: one report per turn; input_tokens includes the cached ones.
    usage.input_tokens += num(event.usage.input_tokens);
    usage.cached_input_tokens += num(event.usage.cached_input_tokens);
    usage.output_tokens += num(event.usage.output_tokens) + num(event.usage.reasoning_output_tokens);
    return true;
  }
  if (event.type === 'result' && event.stats && typeof event.stats === 'object') {
    // Gemini CLI: the final event's stats.
    usage.input_tokens = num(event.stats.input_tokens);
    usage.cached_input_tokens = num(event.stats.cached);
    usage.output_tokens = num(event.stats.output_tokens);
    return true;
  }
  return false;
}

/** Splits a stream into lines and reads each for usage; `finish` reads what is left without a newline. */
export class UsageReader {
  readonly usage: Usage = emptyUsage();
  private pending = '';

  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      readUsageLine(text.slice(start, end), this.usage);
      start = end + 1;
    }
    this.pending = text.slice(start);
    // A single line larger than this is a blob, not a usage report.
    if (this.pending.length > 4 * 1024 * 1024) this.pending = '';
  }

  finish(): Usage {
    if (this.pending) readUsageLine(this.pending, this.usage);
    this.pending = '';
    return this.usage;
  }
}
