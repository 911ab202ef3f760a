/**
 * The plan fields of a task, apart from the shared schemas: only the operations that write a plan
 * (tasks.ts, pipeline.ts) build them, so that a command like `next` or `status` does not.
 */
import * as z from 'zod';
import { LIMITS } from '../domain/limits.js';
import { FILE_ACTIONS } from '../domain/model.js';
import { distinct, line, LocalTaskId, Priority, text } from './schemas.js';

const TaskFileInput = z.strictObject({
  path: line(500).describe('Path from the repository root.'),
  action: z.enum(FILE_ACTIONS).describe('What the task does to it.'),
});

const listOf = <T extends z.ZodType>(item: T) => z.array(item).max(LIMITS.listMax);

/** What a planner writes and a reviewer corrects. */
export const TaskPlanFields = {
  title: line(LIMITS.titleMax).describe('What the task achieves.'),
  description: text(0, LIMITS.taskDescriptionMax).optional().describe('What to do and how to know it is done (markdown).'),
  priority: Priority.optional(),
  depends: listOf(LocalTaskId).optional().describe('Task ids of this change to finish first.'),
  skills: distinct(listOf(line(50))).optional().describe('Skills it needs, like ["sql"]; at one priority, agents with them get it first.'),
  files: listOf(TaskFileInput).optional().describe('Files it will touch.'),
  requirements: distinct(listOf(line(LIMITS.requirementIdMax))).optional().describe('Spec requirement ids it implements, like ["R1"].'),
};
