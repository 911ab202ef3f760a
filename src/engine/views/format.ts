/** Small formatting shared by the plain lines and the live view. */
import type { Usage } from '../../store/runs.js';

export function tokens(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens;
}

/** "1,234 tokens · $0.0123"; empty when the agent reported nothing (a custom agent may not). */
export function usageText(usage: Usage): string {
  const parts: string[] = [];
  if (tokens(usage) > 0) parts.push(`${tokens(usage).toLocaleString('en-US')} tokens`);
  if (usage.cost_usd !== null) parts.push(`$${usage.cost_usd.toFixed(4)}`);
  return parts.join(' · ');
}

/** " · <usage>", or nothing. */
export function withUsage(usage: Usage): string {
  const text = usageText(usage);
  return text ? ` · ${text}` : '';
}

export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** "T2" of "add-search/T2". */
export function localId(taskId: string | null | undefined): string {
  return taskId ? taskId.slice(taskId.indexOf('/') + 1) : '';
}
