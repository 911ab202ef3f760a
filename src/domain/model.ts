/** The objects of a board, as plain data. Files and adapters convert to and from these. */

export const DOC_TYPES = ['proposal', 'spec', 'tasks', 'review', 'design'] as const;
export type DocType = (typeof DOC_TYPES)[number];
/** The documents a change runs through, in order; the others (a design) travel with the change. */
export const STAGES = ['proposal', 'spec', 'tasks', 'review'] as const;
export type Stage = (typeof STAGES)[number];

export const DOC_FILES: Record<DocType, string> = {
  proposal: 'proposal.md',
  spec: 'spec.md',
  tasks: 'tasks.md',
  review: 'REVIEW.md',
  design: 'design.md',
};

/** What each document is called in a sentence ("the task list of add-search"). */
export const DOC_WORDS: Record<DocType, string> = { proposal: 'proposal', spec: 'spec', tasks: 'task list', review: 'review', design: 'design' };

export function isStage(type: DocType): type is Stage {
  return type !== 'design';
}

export const DOC_STATUSES = ['template', 'submitted', 'approved', 'rejected', 'superseded'] as const;
export type DocStatus = (typeof DOC_STATUSES)[number];

/** A note, a piece of feedback or a submission remark: who wrote it, when, and what. */
export interface Note {
  author: string;
  at: string;
  text: string;
}

/** Where an imported document came from: the tool, the file (relative to its repository) and the commit when in git. */
export interface ImportSource {
  tool: string;
  path: string;
  commit?: string;
}

/** Frontmatter common to every document. */
export interface DocMeta {
  id: string;
  change_id: string;
  type: DocType;
  status: DocStatus;
  title?: string;
  created: string;
  updated: string;
  author: string;
  revision: number;
  /** Who took up a rejected document to revise it, and when. */
  assignee?: string;
  claimed_at?: string;
  review_requested_by?: string;
  review_requested_at?: string;
  corrected_by?: string;
  corrected_at?: string;
  decided_by?: string;
  decided_at?: string;
  /** Set on documents `agentboard import` brought over from another tool. */
  imported_from?: ImportSource;
  /**
   * A task list's: the ids of every task it ever had and no longer has. They are never given to
   * another task, and they travel with the list in git (store/transaction.ts keeps them).
   */
  retired?: string[];
  notes: Note[];
  feedback: Note[];
}

/**
 * A section of a document that agentboard has no field for, kept as it was written, in its place:
 * after the title or after the section (named by its field) it followed.
 */
export interface ExtraSection {
  /** The text of its "## " heading; empty for text that stands right under the title. */
  heading: string;
  text: string;
  after: string;
}

export interface Proposal {
  title: string;
  why: string;
  what_changes: string;
  impact: string;
  sections?: ExtraSection[];
}
export const PROPOSAL_PARTS = ['title', 'why', 'what_changes', 'impact'] as const;

/** OpenSpec's delta markers: what a change does to a requirement of the current specs. */
export const DELTAS = ['ADDED', 'MODIFIED', 'REMOVED', 'RENAMED'] as const;
export type Delta = (typeof DELTAS)[number];

export interface Requirement {
  id: string;
  title: string;
  text: string;
  delta?: Delta;
  /** The capability (or source spec) a requirement belongs to when a spec holds several. */
  group?: string;
}

/**
 * A scenario's steps. Each of given, when and then starts with its own step; further steps follow
 * on lines of their own that start with their keyword ("AND …", "THEN …"), in the order written.
 */
export interface Scenario {
  name: string;
  given?: string;
  when: string;
  then: string;
  /** The id of the requirement the scenario belongs to. */
  requirement?: string;
}

export interface Spec {
  title: string;
  overview: string;
  requirements: Requirement[];
  scenarios: Scenario[];
  data_model?: string;
  interfaces?: string;
  sections?: ExtraSection[];
}
export const SPEC_PARTS = ['title', 'overview', 'requirements', 'data_model', 'interfaces', 'scenarios'] as const;

/** A design document: free markdown (context, decisions, risks), kept as written. */
export interface Design {
  title: string;
  text: string;
}

export const VERDICTS = ['APPROVED', 'NEEDS_FIX', 'MAJOR_ISSUES'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const SEVERITIES = ['High', 'Medium', 'Low'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface ReviewIssue {
  title: string;
  severity: Severity;
  description: string;
}

export interface ReviewRound {
  round: number;
  verdict: Verdict;
  reviewer: string;
  at: string;
  summary: string;
  issues: ReviewIssue[];
  /** Sections of the round besides its summary and issues (test results, say), kept after the issues. */
  sections?: ExtraSection[];
}

export const TASK_STATUSES = ['todo', 'in_progress', 'blocked', 'in_review', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Status words from other task tools that mean one of ours. */
export const TASK_STATUS_ALIASES: Record<string, TaskStatus> = { pending: 'todo', completed: 'done' };

export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, urgent: 3 };

export const FILE_ACTIONS = ['create', 'modify', 'delete', 'rename'] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

export interface TaskFile {
  path: string;
  action: FileAction;
}

export const BLOCKER_SEVERITIES = ['low', 'medium', 'high'] as const;
export type BlockerSeverity = (typeof BLOCKER_SEVERITIES)[number];

export interface Blocker {
  reason: string;
  severity: BlockerSeverity;
  by: string;
  at: string;
  resolved_by?: string;
  resolved_at?: string;
}

export interface Task {
  id: string;
  title: string;
  description: string;
  status: TaskStatus;
  priority: Priority;
  depends: string[];
  skills: string[];
  requirements: string[];
  files: TaskFile[];
  assignee?: string;
  claimed_at?: string;
  progress?: number;
  progress_message?: string;
  progress_at?: string;
  submitted_at?: string;
  submission?: string;
  pr_url?: string;
  completed_at?: string;
  /** The git branch `agentboard run` made for the task (agentboard/<change_id>/<task_id>). */
  branch?: string;
  /** The review round whose issue this task fixes, for fix tasks made from a review. */
  review_round?: number;
  /** The group (a phase or layer of the plan, like "1. Data Layer") the task was listed under. */
  group?: string;
  /** Fields of the task's YAML agentboard does not read (a person's own, like `estimate: 3`): kept as written. */
  extra?: Record<string, unknown>;
  /** A person's comments in the task's YAML (`# …`), kept through agentboard's writes of the task. */
  comments?: YamlComments;
  blockers: Blocker[];
  feedback: Note[];
  notes: Note[];
}

/**
 * The comments of a YAML block, by where they stand: full lines before a top-level key (a comment
 * inside a key's nested lines is kept before that key), the comment at the end of a key's line,
 * and the lines after the last key. Each is the comment's text, starting with `#`.
 */
export interface YamlComments {
  before?: Record<string, string[]>;
  inline?: Record<string, string>;
  end?: string[];
}

export const PHASES = ['proposal', 'spec', 'tasks', 'implementation', 'review', 'done', 'archived'] as const;
export type Phase = (typeof PHASES)[number];

/**
 * The three kinds of task fields. The plan is what planners and people write; the state is what
 * working on the task records (one value each); the logs only ever grow. A hand edit is merged
 * field kind by field kind (store/merge.ts), and a plan rewrite keeps the state and logs.
 */
export const TASK_PLAN_FIELDS = ['title', 'description', 'priority', 'depends', 'skills', 'files', 'requirements', 'review_round', 'group'] as const;
export const TASK_STATE_FIELDS = ['status', 'assignee', 'claimed_at', 'progress', 'progress_message', 'progress_at', 'submitted_at', 'submission', 'pr_url', 'completed_at', 'branch'] as const;
export const TASK_LOG_FIELDS = ['blockers', 'feedback', 'notes'] as const;
/** State fields that belong to a claim: cleared when a task goes back to the pool. */
export const TASK_CLAIM_FIELDS = TASK_STATE_FIELDS.filter((f) => f !== 'status');

/** Document frontmatter of the same three kinds (the title is plan; the body is plan too). */
export const DOC_STATE_FIELDS = [
  'status',
  'created',
  'updated',
  'author',
  'revision',
  'assignee',
  'claimed_at',
  'review_requested_by',
  'review_requested_at',
  'corrected_by',
  'corrected_at',
  'decided_by',
  'decided_at',
] as const;
export const DOC_LOG_FIELDS = ['notes', 'feedback'] as const;

/** What choosing work and counting it read of a task: a whole Task, or a quick summary of one (store/task-scan.ts). */
export type TaskState = Pick<Task, 'id' | 'status' | 'priority' | 'assignee' | 'depends' | 'skills'>;

/** A task is held while someone has claimed it and it is not finished. */
export function isHeld(task: Pick<Task, 'assignee' | 'status'>): boolean {
  return task.assignee !== undefined && (task.status === 'in_progress' || task.status === 'blocked' || task.status === 'in_review');
}
