/**
 * The decisions a document holds: its status (approving and rejecting are a person's acts, through
 * `agentboard approve` and `agentboard reject`; submitting is the writing command's), a review's
 * latest verdict (a reviewer's, through `agentboard review`), the plan of a task list a person
 * approved (its tasks and their dependencies no longer change, but by a person's `agentboard task
 * add` and `agentboard task update`) and that a task is done
 * (through `agentboard task done`, or a person's approval; its dependents start on it). Only
 * agentboard's commands change them, which check who may and record who did: a hand edit of the
 * file that changes one decides nothing. The board goes on with what agentboard recorded (the ledger),
 * `validate` and `status` report the edit, and agentboard's next write of the file keeps its own
 * value and records the person's as a merge conflict (store/merge.ts).
 *
 * A design travels with its change and decides nothing: its status is not one of these.
 *
 * A decision that came with git is no hand edit: a file that differs from what agentboard last
 * wrote here because a `git pull` (or a checkout, a merge) brought another clone's version holds
 * decisions agentboard made there. It is told by the version the commit checked out holds
 * (HEAD): a decision the file shares with it came with git.
 */
import { FindingSink, type Finding } from '../domain/findings.js';
import { isHuman } from '../domain/ids.js';
import { DOC_WORDS, isHeld, type DocStatus, type DocType, type ReviewRound, type TaskStatus, type Verdict } from '../domain/model.js';
import type { DocFile } from './documents.js';
import { parseReviewBody } from './format-review.js';
import { baseItems, docItems, META_ITEM, type LedgerEntry } from './ledger.js';
import { fingerprints, newTaskState, sameDepends, type Item } from './merge.js';

/**
 * What a hand edit changed of the decisions in a document agentboard wrote (its file and line for
 * each). `earlier`: the file has the value agentboard wrote there before (an editor's stale copy,
 * which the next write replaces as it merges): the board goes on with agentboard's, and it is not
 * reported.
 */
export interface HandDecision {
  /** The document's status, as agentboard recorded it and as the file has it. */
  status?: { recorded: DocStatus; file: DocStatus; line: number | undefined; earlier?: true };
  /** A review's latest verdict, as agentboard recorded it and as the file has it. */
  verdict?: { recorded: Verdict | null; file: Verdict; line: number | undefined; earlier?: true };
  /** Tasks a hand edit added to a task list agentboard recorded as approved. */
  added?: { id: string; line: number }[];
  /** Tasks a hand edit made done, with the state agentboard recorded (a task new to it: to do). */
  done?: { id: string; line: number; recorded: Item['state']; earlier?: true }[];
  /** Tasks a hand edit took from the agent holding them (back to todo, or to another holder), with the state agentboard recorded: only `agentboard release` does that. */
  released?: { id: string; line: number; recorded: Item['state']; earlier?: true }[];
  /** Tasks of a task list agentboard recorded as approved whose dependencies a hand edit changed, with those it recorded and those the file has. */
  depends?: { id: string; line: number; recorded: string[]; file: string[]; earlier?: true }[];
  /** Tasks the commit checked out holds that a hand edit took out of a document agentboard never wrote here, without retiring their ids (`unrecorded` only: with a ledger entry, Board.missingByHand tells them). */
  missing?: string[];
  /** The document was never written by agentboard here (no ledger entry): what is "recorded" is what the commit checked out holds. */
  unrecorded?: true;
}

/** The verdict of the latest round of a review's body; null when it names none that reads. */
export function latestVerdict(body: string): Verdict | null {
  return parseReviewBody(body, new FindingSink(''), { reviewer: '', at: '' })[0]?.verdict ?? null;
}

function verdictOf(doc: { content: unknown } | null | undefined): Verdict | null {
  return (doc?.content as ReviewRound[] | null | undefined)?.[0]?.verdict ?? null;
}

/** The line of the frontmatter's `status:` key in a document's text. */
function statusLine(text: string): number | undefined {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length && lines[i]!.trimEnd() !== '---'; i++) if (/^status[ \t]*:/.test(lines[i]!)) return i + 1;
  return undefined;
}

/** The line of a review's "# Verdict:" heading. */
function verdictLine(doc: DocFile): number | undefined {
  const at = doc.body.split('\n').findIndex((l) => /^#[ \t]+Verdict[ \t]*:/i.test(l));
  return at < 0 ? undefined : doc.bodyLine + at;
}

/**
 * The decisions of `doc` (a file that differs from what agentboard last wrote, `entry`) that are
 * not the ones agentboard recorded and did not come with git (`committed`: the document as HEAD
 * holds it, asked only when a decision differs); null when there are none.
 */
export function handDecision(doc: DocFile, text: string, entry: LedgerEntry, committed: () => DocFile | null): HandDecision | null {
  if (doc.content === null || doc.type === 'design') return null;
  let git: DocFile | null | undefined;
  const inGit = () => (git === undefined ? (git = committed()) : git);
  const items = docItems(doc);
  let gitItems: Map<string, Item> | undefined;
  /**
   * An item as the commit checked out holds it, where that part of it came with git: not where
   * agentboard wrote it so here and has moved on since (a task done and committed, then reopened by a
   * person), which brings no decision of another clone's.
   */
  const brought = (key: string, part: 1 | 2): Item | undefined => {
    const doc = inGit();
    const item = (gitItems ??= doc ? docItems(doc) : new Map()).get(key);
    return item && !entry.history[key]?.some((e) => e[part] === fingerprints(item)[part - 1]) ? item : undefined;
  };
  /** A part of an item as agentboard wrote it at an earlier write: an editor's stale copy, which the next write replaces as it merges (store/merge.ts). */
  const earlier = (key: string, part: 1 | 2) => {
    const fp = fingerprints(items.get(key)!)[part - 1];
    return entry.history[key]?.some((e) => e[part] === fp) ?? false;
  };
  const out: HandDecision = {};
  const recorded = entry.doc.meta.status;
  if (doc.meta.status !== recorded) {
    const stale = earlier(META_ITEM, 2);
    if (stale || brought(META_ITEM, 2)?.state.status !== doc.meta.status) out.status = { recorded, file: doc.meta.status, line: statusLine(text), ...(stale ? { earlier: true as const } : {}) };
  }
  if (doc.type === 'review') {
    const was = verdictOf(entry.doc);
    const now = verdictOf(doc);
    const stale = now !== was && earlier(META_ITEM, 1);
    if (now !== null && now !== was && (stale || !brought(META_ITEM, 1) || verdictOf(inGit()) !== now)) out.verdict = { recorded: was, file: now, line: verdictLine(doc), ...(stale ? { earlier: true as const } : {}) };
  }
  if (doc.type === 'tasks') {
    const known = baseItems(entry);
    const fresh = recorded === 'approved' ? blocksOf(doc).filter((b) => b.task && !known.has(b.id) && !(earlier(b.id, 1) && earlier(b.id, 2))) : [];
    if (fresh.length > 0) {
      const committedIds = new Set(blocksOf(inGit()).map((b) => b.id));
      const added = fresh.filter((b) => !committedIds.has(b.id)).map((b) => ({ id: b.id, line: taskLine(doc, b) }));
      if (added.length > 0) out.added = added;
    }
    const changed = recorded === 'approved' ? rewired(doc, known) : [];
    if (changed.length > 0) {
      const inGitToo = new Set(blocksOf(inGit()).flatMap((b) => (b.task && brought(b.id, 1) && changed.some((d) => d.id === b.id && sameDepends(d.file, b.task!.depends)) ? [b.id] : [])));
      const depends = changed.flatMap((d) => {
        const stale = earlier(d.id, 1);
        return !stale && inGitToo.has(d.id) ? [] : [stale ? { ...d, earlier: true as const } : d];
      });
      if (depends.length > 0) out.depends = depends;
    }
    const finished = madeDone(doc, known, out.added, items);
    if (finished.length > 0) {
      const doneInGit = new Set(blocksOf(inGit()).flatMap((b) => (b.task?.status === 'done' && brought(b.id, 2) ? [b.id] : [])));
      const done = finished.flatMap((d) => {
        const stale = earlier(d.id, 2);
        return !stale && doneInGit.has(d.id) ? [] : [stale ? { ...d, earlier: true as const } : d];
      });
      if (done.length > 0) out.done = done;
    }
    const taken = takenFromHolder(doc, known);
    if (taken.length > 0) {
      // A claim a pull or checkout took out (the commit checked out has the task so) came with git: not a hand edit.
      const freeInGit = new Set(blocksOf(inGit()).flatMap((b) => (b.task && brought(b.id, 2) && taken.some((t) => t.id === b.id && b.task!.status === t.file.status && b.task!.assignee === t.file.assignee) ? [b.id] : [])));
      const released = taken.flatMap(({ file: _file, ...t }) => {
        const stale = earlier(t.id, 2);
        return !stale && freeInGit.has(t.id) ? [] : [stale ? { ...t, earlier: true as const } : t];
      });
      if (released.length > 0) out.released = released;
    }
  }
  return out.status || out.verdict || out.added || out.done || out.depends || out.released ? out : null;
}

type TaskBlocks = NonNullable<DocFile<'tasks'>['content']>['blocks'];

/** The blocks of a task list (none for another document, or none at all). */
function blocksOf(doc: DocFile | null | undefined): TaskBlocks {
  return (doc?.content as DocFile<'tasks'>['content'] | undefined)?.blocks ?? [];
}

/** The line of a task list's block in its file. */
function taskLine(doc: DocFile, block: TaskBlocks[number]): number {
  return block.line + doc.bodyLine - 1;
}

/** The tasks of a list whose dependencies are not those `known` (the list as agentboard recorded it, or as the commit holds it) has for them; a task new to it has none recorded. */
function rewired(doc: DocFile, known: Map<string, Item>): NonNullable<HandDecision['depends']> {
  return blocksOf(doc).flatMap((b) => {
    const was = known.get(b.id);
    if (!b.task || !was || sameDepends(was.plan.depends, b.task.depends)) return [];
    return [{ id: b.id, line: taskLine(doc, b), recorded: (was.plan.depends as string[] | null) ?? [], file: b.task.depends }];
  });
}

/**
 * The tasks of a list that are done where `known` (the list as agentboard recorded it, or as the
 * commit holds it) has them otherwise, but those `added` by hand, each with the state `known` has
 * (a task new to it: to do). `items`: the document's own, when already made.
 */
function madeDone(doc: DocFile, known: Map<string, Item>, added: { id: string }[] = [], items?: Map<string, Item>): { id: string; line: number; recorded: Item['state'] }[] {
  const left = new Set(added.map((a) => a.id));
  const finished = blocksOf(doc).filter((b) => b.task?.status === 'done' && !left.has(b.id) && known.get(b.id)?.state.status !== 'done');
  if (finished.length === 0) return [];
  items ??= docItems(doc);
  return finished.map((b) => ({ id: b.id, line: taskLine(doc, b), recorded: known.get(b.id)?.state ?? newTaskState(items.get(b.id)!.state) }));
}

/**
 * The tasks of a list that a hand edit took from the agent holding them where `known` (the list as
 * agentboard recorded it) has them held: back to todo, or to another holder (made done is madeDone's).
 */
function takenFromHolder(doc: DocFile, known: Map<string, Item>): { id: string; line: number; recorded: Item['state']; file: { status: string; assignee: string | undefined } }[] {
  return blocksOf(doc).flatMap((b) => {
    const was = known.get(b.id)?.state;
    if (!b.task || !was || b.task.status === 'done') return [];
    const holder = typeof was.assignee === 'string' ? was.assignee : undefined;
    if (!isHeld({ assignee: holder, status: was.status as TaskStatus }) || (b.task.status !== 'todo' && b.task.assignee === holder)) return [];
    return [{ id: b.id, line: taskLine(doc, b), recorded: was, file: { status: b.task.status, assignee: b.task.assignee } }];
  });
}

/** `task` with the state agentboard recorded (`state`, a field null when unset) in place of its own, in the fields named (all of them by default). */
export function withState<T extends object>(task: T, state: Item['state'], fields: readonly string[] = Object.keys(state)): T {
  const out = { ...task } as Record<string, unknown>;
  for (const field of fields) {
    if (state[field] === null || state[field] === undefined) delete out[field];
    else out[field] = state[field];
  }
  return out as T;
}

/**
 * The decisions of a document agentboard never wrote in this clone (it has no ledger entry: a file
 * made by hand, or one git brought) that the commit checked out (`committed`, null when it has no
 * such file) does not hold: made by hand, they decide nothing either. The board goes on with the
 * commit's: a document the commit does not hold is submitted, and its review has no verdict.
 */
export function unrecordedDecision(doc: DocFile, text: string, committed: DocFile | null): HandDecision | null {
  if (doc.content === null || doc.type === 'design') return null;
  const out: HandDecision = { unrecorded: true };
  const status = doc.meta.status;
  const was = committed?.meta.status ?? 'submitted';
  const decided = (s: DocStatus) => s === 'approved' || s === 'rejected';
  if (status !== was && (decided(status) || decided(was))) out.status = { recorded: was, file: status, line: statusLine(text) };
  if (doc.type === 'review') {
    const now = verdictOf(doc);
    const before = verdictOf(committed);
    if (now !== null && now !== before) out.verdict = { recorded: before, file: now, line: verdictLine(doc) };
  }
  if (doc.type === 'tasks') {
    const before = committed ? docItems(committed) : new Map<string, Item>();
    if (status === 'approved' && committed?.meta.status === 'approved') {
      const added = blocksOf(doc).filter((b) => b.task && !before.has(b.id)).map((b) => ({ id: b.id, line: taskLine(doc, b) }));
      if (added.length > 0) out.added = added;
      const depends = rewired(doc, before);
      if (depends.length > 0) out.depends = depends;
    }
    const done = madeDone(doc, before, out.added);
    if (done.length > 0) out.done = done;
    // A task is removed with `agentboard task rm`, which retires its id: one the file just lacks was taken out by hand.
    const here = new Set([...blocksOf(doc).map((b) => b.id), ...(doc.meta.retired ?? [])]);
    const missing = [...before.keys()].filter((id) => id !== META_ITEM && !here.has(id));
    if (missing.length > 0) out.missing = missing;
  }
  return out.status || out.verdict || out.added || out.done || out.depends || out.missing ? out : null;
}

/** Whether a document's frontmatter may hold a decision worth checking: a status a person gives, or (a review) a verdict in its body. */
export function mayHoldDecision(type: DocType, status: DocStatus | undefined): boolean {
  return type === 'review' || (type !== 'design' && (status === 'approved' || status === 'rejected'));
}

/** `doc` with the decisions agentboard recorded in place of those a hand edit made (`hand`): what the board goes on with. */
export function asRecorded<T extends DocType>(doc: DocFile<T>, hand: HandDecision): DocFile<T> {
  const out: DocFile<T> = { ...doc };
  if (hand.status) out.meta = { ...doc.meta, status: hand.status.recorded };
  if (hand.verdict && doc.content) {
    const [latest, ...earlier] = doc.content as ReviewRound[];
    // With no verdict recorded, the round holding the hand-made one is not a round of the board's.
    out.content = (hand.verdict.recorded ? [{ ...latest!, verdict: hand.verdict.recorded }, ...earlier] : earlier) as DocFile<T>['content'];
  }
  if ((hand.added || hand.done || hand.depends || hand.released) && doc.content) {
    const left = new Set(hand.added?.map((a) => a.id));
    const recorded = new Map([...(hand.done ?? []), ...(hand.released ?? [])].map((d) => [d.id, d.recorded]));
    const depends = new Map(hand.depends?.map((d) => [d.id, d.recorded]));
    const content = doc.content as NonNullable<DocFile<'tasks'>['content']>;
    const blocks = content.blocks
      .filter((b) => !left.has(b.id))
      .map((b) => (b.task && recorded.has(b.id) ? { ...b, task: withState(b.task, recorded.get(b.id)!) } : b))
      .map((b) => (b.task && depends.has(b.id) ? { ...b, task: { ...b.task, depends: depends.get(b.id)! } } : b));
    out.content = { ...content, blocks } as DocFile<T>['content'];
  }
  return out;
}

const WRITES: Record<DocType, string> = { proposal: 'propose', spec: 'spec', tasks: 'tasks', review: 'review', design: 'design' };

/** The findings (errors, with file and line) of the decisions a hand edit made in a document of a change. */
export function handDecisionFindings(file: string, changeId: string, type: DocType, hand: HandDecision): Finding[] {
  const out: Finding[] = [];
  const word = DOC_WORDS[type];
  if (hand.status && !hand.status.earlier) {
    const { recorded, file: now, line } = hand.status;
    const how =
      now === 'approved'
        ? `a person approves it with \`agentboard approve ${changeId} ${type}\``
        : now === 'rejected'
          ? `a person rejects it with \`agentboard reject ${changeId} ${type} --feedback "…"\``
          : now === 'submitted'
            ? `it is submitted by writing it with \`agentboard ${WRITES[type]} ${changeId}\``
            : `its status changes only through agentboard's commands`;
    out.push({
      level: 'error',
      file,
      ...(line !== undefined ? { line } : {}),
      rule: 'document.status.by_hand',
      message: `${hand.unrecorded ? `this ${word} says "${now}", but agentboard never wrote it here and the commit checked out ${recorded === 'submitted' ? 'does not hold it' : `has it "${recorded}"`}: it was written by hand` : `the status of this ${word} was set to "${now}" by a hand edit of the file, where agentboard recorded "${recorded}"`}: a hand edit decides nothing, so the board goes on with "${recorded}" (no task is handed out on the strength of it), and agentboard's next write of the file puts "${recorded}" back`,
      fix: `${how}; until then set the line ${hand.unrecorded ? 'to' : 'back to'} "status: ${recorded}"`,
    });
  }
  if (hand.verdict && !hand.verdict.earlier) {
    const { recorded, file: now, line } = hand.verdict;
    out.push({
      level: 'error',
      file,
      ...(line !== undefined ? { line } : {}),
      rule: 'review.verdict.by_hand',
      message: hand.unrecorded
        ? `the latest verdict of the review says ${now}, but agentboard never wrote this review here and the commit checked out ${recorded ? `has ${recorded}` : 'holds no such round'}: it was written by hand, and a hand edit decides nothing, so the board goes on with ${recorded ?? 'no verdict'}, \`agentboard archive\` refuses the change meanwhile, and agentboard's next write of the file ${recorded ? `puts ${recorded} back` : 'leaves that round out'}`
        : `the latest verdict of the review was set to ${now} by a hand edit of the file, where agentboard recorded ${recorded ?? 'none'}: a hand edit decides nothing, so the board goes on with ${recorded ?? 'no verdict'}, \`agentboard archive\` refuses the change meanwhile, and agentboard's next write of the file puts ${recorded ?? 'it'} back`,
      fix: `a reviewer records a new round with \`agentboard review ${changeId} --verdict … --summary "…" --notes "…"\`${recorded ? `; until then set the heading back to "# Verdict: ${recorded}"` : ''}`,
    });
  }
  for (const task of hand.added ?? []) {
    out.push({
      level: 'error',
      file,
      line: task.line,
      rule: 'tasks.added.by_hand',
      message: `task ${task.id} was added by a hand edit of a task list a person approved, whose plan no longer changes: it is not handed out, and agentboard's next write of the list leaves it out (what it holds is kept in \`agentboard conflicts list\`)`,
      fix: `to add it, a person runs \`agentboard task add ${changeId} --title "…"\`; otherwise take its "## ${task.id}: …" block out of the file`,
    });
  }
  for (const task of hand.done ?? []) {
    if (task.earlier) continue;
    const was = String(task.recorded.status);
    const holder = typeof task.recorded.assignee === 'string' && was !== 'todo' ? task.recorded.assignee : null;
    out.push({
      level: 'error',
      file,
      line: task.line,
      rule: 'tasks.done.by_hand',
      message: `task ${task.id} was made done by a hand edit of the file, where agentboard recorded it ${was}${holder ? ` (held by ${holder})` : ''}: a hand edit decides nothing, so the board goes on with ${was} (the tasks that depend on it wait), and agentboard's next write of the list puts ${was} back`,
      fix: `${finishing(`${changeId}/${task.id}`, was, holder)}; otherwise set its line back to "status: ${was}"`,
    });
  }
  for (const task of hand.released ?? []) {
    if (task.earlier) continue;
    const was = String(task.recorded.status);
    const holder = String(task.recorded.assignee);
    const ref = `${changeId}/${task.id}`;
    out.push({
      level: 'error',
      file,
      line: task.line,
      rule: 'tasks.claim.by_hand',
      message: `task ${task.id} was taken from ${holder}, which holds it (${was}), by a hand edit of the file: a hand edit decides nothing, so the board goes on with it held by ${holder} (it is not handed out), and agentboard's next write of the list puts ${holder} back`,
      fix: `to put it back in the pool, a person runs \`agentboard release ${ref} --as human:<your name>\`; otherwise set its lines back to "status: ${was}" and "assignee: ${holder}"`,
    });
  }
  for (const task of hand.depends ?? []) {
    if (task.earlier) continue;
    const names = (ids: string[]) => (ids.length > 0 ? ids.join(', ') : 'none');
    const ref = `${changeId}/${task.id}`;
    const how =
      task.file.length > 0
        ? `to change them, a person runs \`agentboard task update ${ref} ${task.file.map((id) => `--depends ${id}`).join(' ')} --as human:<your name>\``
        : `to take them out, a person runs \`agentboard task update ${ref} --input depends.json --as human:<your name>\` with depends.json holding {"depends": []}`;
    out.push({
      level: 'error',
      file,
      line: task.line,
      rule: 'tasks.depends.by_hand',
      message: `the dependencies of task ${task.id} were changed by a hand edit of a task list a person approved (the file says ${names(task.file)}, where ${hand.unrecorded ? 'the commit checked out has' : 'agentboard recorded'} ${names(task.recorded)}): they are part of the plan that was approved, and a hand edit decides nothing, so the board goes on with ${names(task.recorded)} and agentboard's next write of the list puts ${names(task.recorded)} back`,
      fix: `${how}; otherwise ${task.recorded.length > 0 ? `set its line back to "depends: [${task.recorded.join(', ')}]"` : 'take its "depends:" line out'}`,
    });
  }
  return out;
}

/** The finding of a task agentboard wrote, or the commit checked out holds, that a hand edit took out of the list without retiring its id: the next write puts it back. */
export function missingTaskFinding(file: string, changeId: string, id: string): Finding {
  return {
    level: 'warning',
    file,
    rule: 'tasks.missing.by_hand',
    message: `task ${id} is not in the file since a hand edit (taken out, or its "## ${id}: Title" heading changed), so agentboard's next write of the list puts it back`,
    fix: `to take it out, have a person run \`agentboard task rm ${changeId}/${id}\` (or name ${id} under "retired:"); otherwise put its block back as "## ${id}: Title"`,
  };
}

/** The commands that make a task done from the state agentboard recorded, with who may run them. */
function finishing(ref: string, was: string, holder: string | null): string {
  const person = 'human:<your name>';
  if (was === 'in_review') return `if the work is done, a person approves it with \`agentboard approve ${ref} --as ${person}\``;
  if (was === 'blocked') return `if it is done, a person clears its blocker and marks it done: \`agentboard task unblock ${ref} --as ${person}\`, then \`agentboard task done ${ref} --as ${person}\``;
  const agent = holder && !isHuman(holder) ? `${holder}, which holds it, marks it done with \`agentboard task done ${ref} --as ${holder}\`, or ` : '';
  return `if it is done, ${agent}a person marks it done with \`agentboard task done ${ref} --as ${person}\``;
}
