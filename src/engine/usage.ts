/**
 * Tokens and cost, read from the JSON lines the agent CLIs print. Each CLI reports usage its own
 * way; a line that is not one of these is not usage. Claude Code reports cost; Codex and Gemini
 * CLI report tokens only.
 */
import { costOf, emptyUsage, tokenCount as num, type Usage } from '../store/runs.js';

type Event = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A line of an agent's stdout as the JSON event it is; null when it is none. */
function eventOf(line: string): Event | null {
  // Only JSON objects can be events; most lines of a transcript are not worth parsing.
  if (line.charCodeAt(0) !== 123 || !line.includes('"type"')) return null;
  try {
    const event = JSON.parse(line);
    return event && typeof event === 'object' ? event : null;
  } catch {
    return null;
  }
}

/**
 * The error an agent CLI reported in an event (an API error, a rate limit), in its own words, on
 * one line; null when the event reports none. Claude Code: the result with is_error; Codex:
 * turn.failed, or an error event; Gemini CLI: an error event, or a result whose status is error.
 */
export function errorOf(event: Event): string | null {
  const said = (...values: unknown[]) => {
    const text = values.find((v) => typeof v === 'string' && v.trim() !== '') as string | undefined;
    return text === undefined ? null : text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
  };
  if (event.type === 'result' && event.is_error === true) return said(event.result, event.error?.message, event.error) ?? `an error (${said(event.subtype) ?? 'no detail'})`;
  if (event.type === 'result' && event.status === 'error') return said(event.error?.message, event.error) ?? 'an error (no detail)';
  if (event.type === 'turn.failed') return said(event.error?.message, event.error) ?? 'the turn failed (no detail)';
  if (event.type === 'error') return said(event.message, event.error?.message, event.error);
  return null;
}

/** Reads an event into the usage so far; returns true when it was a usage report. */
function usageOf(event: Event, usage: Usage): boolean {
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
    // reasoning_output_tokens is a part of output_tokens (OpenAI's usage), not more of them.
    usage.output_tokens += num(event.usage.output_tokens);
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

/** Splits a stream into lines and reads each for usage and errors; `finish` reads what is left without a newline. */
export class UsageReader {
  readonly usage: Usage = emptyUsage();
  /** The last error the CLI reported, in its own words. */
  error: string | null = null;
  private pending = '';

  private read(line: string): void {
    const event = eventOf(line);
    if (!event) return;
    usageOf(event, this.usage);
    this.error = errorOf(event) ?? this.error;
  }

  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      this.read(text.slice(start, end));
      start = end + 1;
    }
    this.pending = text.slice(start);
    // A single line larger than this is a blob, not a usage report.
    if (this.pending.length > 4 * 1024 * 1024) this.pending = '';
  }

  finish(): Usage {
    if (this.pending) this.read(this.pending);
    this.pending = '';
    return this.usage;
  }
}
