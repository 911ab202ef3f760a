/** The adapter for an agent: a built-in CLI, or a custom command. */
import type { AgentSettings } from '../../store/config.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { custom } from './custom.js';
import { gemini } from './gemini.js';
import type { Adapter } from './types.js';

const BUILT_IN: Record<NonNullable<AgentSettings['adapter']>, Adapter> = { claude, codex, gemini };

export function adapterFor(config: AgentSettings): Adapter {
  return config.adapter ? BUILT_IN[config.adapter] : custom;
}
