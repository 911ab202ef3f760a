/**
 * What merging people's edits could not reconcile: both values are kept (one in the file, the other
 * here) until a person has looked. status and validate show them; a person clears them.
 */
import * as z from 'zod';
import type { Finding } from '../domain/findings.js';
import type { Board } from '../store/board.js';
import type { RecordedConflict } from '../store/transaction.js';
import { page, Page, pageInput } from './pages.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor, line } from './schemas.js';

export const ConflictOut = z.object({
  file: z.string(),
  item: z.string().describe('The task id, or "#meta" for the frontmatter and body.'),
  part: z.enum(['plan', 'state', 'removed', 'added']).describe('"added": a task the person\'s file added to a task list a person approved; it was left out of the file and is kept here.'),
  kept: z.enum(['agentboard', 'person']).describe('Whose value the file holds now.'),
  agentboard: z.unknown().describe("agentboard's values."),
  person: z.unknown().describe("The person's values."),
  at: z.string(),
});

export function describeConflict(c: RecordedConflict): string {
  if (c.part === 'removed') return `${c.item} is missing from the person's file but was kept (remove a task with \`agentboard task rm\`)`;
  if (c.part === 'added') return `${c.item} was added by hand to a task list a person approved and was left out of the file; what it held is recorded here (a person adds a task with \`agentboard task add\`)`;
  return `${c.item}: the person's ${c.part} and agentboard's differ; ${c.kept === 'person' ? "the person's" : "agentboard's"} is in the file, the other is recorded here`;
}

/** Conflicts as validate findings of the change they belong to (warnings: nothing is lost, a person should look). */
export function conflictFindings(board: Board, changeId: string): Finding[] {
  const prefix = `agentd/changes/${changeId}/`;
  return board
    .readConflicts()
    .filter((c) => c.file.startsWith(prefix))
    .map((c) => ({ level: 'warning', file: c.file, rule: 'merge.conflict', message: describeConflict(c), fix: 'look at both values with `agentboard conflicts list`, fix the file by hand if needed, then `agentboard conflicts clear`' }));
}

export const listConflicts = defineOp({
  name: 'conflict.list',
  summary: "What merging people's edits with agents' work kept on both sides",
  access: 'read',
  input: z.strictObject({ file: line(500).optional().describe('Only conflicts of this file (as agentd/changes/<change>/tasks.md).'), ...pageInput('conflicts') }),
  output: z.object({ conflicts: z.array(ConflictOut), hand_edited: z.array(z.string()).describe('Files a person edited since agentboard last wrote them; the next write merges them.'), ...Page }),
  cli: { command: 'conflicts list' },
  tool: {
    name: 'agentboard_list_conflicts',
    title: 'List merge conflicts',
    description: "List what agentboard kept of both sides where a person's hand edit disagreed with agents' work, and the hand-edited files the next write merges.",
    profiles: ['planner', 'reviewer'],
    idempotent: true,
  },
  run(ctx, input) {
    const board = ctx.board();
    const conflicts = board.readConflicts().filter((c) => !input.file || c.file === input.file);
    return { ...page(ctx, 'conflicts', conflicts, input), hand_edited: board.handEdited() };
  },
});

export const clearConflicts = defineOp({
  name: 'conflict.clear',
  summary: 'Clear recorded merge conflicts once a person has looked (people only)',
  access: 'human',
  input: z.strictObject({ agent_id: Actor, file: line(500).optional().describe('Only the conflicts of this file.') }),
  output: z.object({ cleared: z.number().int() }),
  cli: { command: 'conflicts clear' },
  run(ctx, input) {
    requireHuman(input.agent_id, 'Clearing merge conflicts');
    return ctx.board().mutate((tx) => {
      const cleared = tx.clearConflicts(input.file);
      if (cleared > 0) tx.log(input.agent_id, 'conflict.clear', input.file ?? 'agentd', `cleared ${cleared} merge conflict${cleared === 1 ? '' : 's'}${input.file ? ` of ${input.file}` : ''}`);
      return { cleared };
    });
  },
});

export const CONFLICT_OPS = [listConflicts, clearConflicts];
