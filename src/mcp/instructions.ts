/**
 * What the MCP server tells an agent at the start (the `instructions` of initialize), written for
 * its profile: what the agent is there for, then the ways of working its tools allow. A sentence
 * naming a tool the profile does not serve is left out (refs.ts fitGuidance).
 */
import { refTo } from '../domain/refs.js';
import type { Operation, Profile } from '../ops/registry.js';
import { fitGuidance } from './refs.js';
import { documentsWritten } from '../ops/doc-write.js';

const ROLE: Record<Profile, string> = {
  worker: 'You do tasks: the board hands you one at a time.',
  planner: 'You plan changes (proposal, spec, task list) and keep their tasks in shape; other agents do the tasks.',
  reviewer: 'You review: documents people send you to check, and changes whose tasks are written.',
  agent: 'You plan changes (proposal, spec, task list) and do their tasks.',
  all: 'Every tool an agent may use is served: plan changes, do tasks, review.',
};

/** `revises`: the profile writes documents, so `next` may hand out a rejected one to revise. */
const ways = (revises: boolean): string[] => [
  `Register once with ${refTo('agent.register')}. Your skills help ${refTo('task.next')} match tasks to you.`,
  `Get work with ${refTo('task.next')}: one task, already yours${revises ? ' (or a rejected document to revise, with its feedback)' : ''}. ` +
    `Report with ${refTo('task.progress')} and record decisions with ${refTo('task.note')}. ` +
    `Finish with ${refTo('task.done')}, or with ${refTo('session.submit')} when a person must check the work; then get the next task. ` +
    `If something blocks a task, call ${refTo('task.block')}, and ${refTo('task.unblock')} once it is resolved.`,
  `Plan a change with ${refTo('proposal.submit')} (it creates the change), then ${refTo('spec.create')}, then ${refTo('tasks.create')}: each checks every field before writing and names what to fix. ` +
    `Change the plan later with ${refTo('task.add')} and ${refTo('task.update')}.`,
  `See the board with ${refTo(['board.status', 'change.list'])}; read a document, with any feedback from people, with ${refTo('document.get')}.`,
  `Documents sent to you for review are listed by ${refTo('document.list', { awaiting: 'review' })}. ` +
    `Fix one with ${refTo('document.correct')} and the review_key a person gave you. Record a review of a change with ${refTo('review.create')}.`,
  `Tell people what you are doing with ${refTo('session.status')}: working, then completed when you are done.`,
  `When unsure, ask a person with ${refTo('input.ask')} and read the answer with ${refTo('session.show')}.`,
  'Every error says what to do next; follow it. Approving and rejecting are for people only.',
];

/** `boundTo`: the agent a server started with --as acts for. */
export function instructionsFor(profile: Profile, served: readonly Operation[], boundTo?: string): string {
  return [
    'agentboard is the task board of this repository, shared with people and other agents.',
    ROLE[profile],
    ...ways(documentsWritten(served).length > 0).map((line) => fitGuidance(line, served)),
    boundTo ? `This server acts for ${boundTo}: agent_id may be left out.` : 'Pass the same agent_id on every call.',
  ]
    .filter((line) => line !== '')
    .join('\n');
}
