/**
 * A board history that forked: the remote's board was moved back (a force-push of an older copy, a
 * copy put back by a clone that had not synced the last writes) and written on since, while this
 * clone holds writes made after the point it was moved back to. agentboard only moves the board
 * forward, so this is the one way two histories of one board meet. The writes this clone has and the
 * remote lacks are merged onto the remote's board, three ways from the commit both histories share:
 *
 * - a file only one side changed takes that side's version;
 * - a task list both changed is merged task by task, and each task part by part (its plan, its state:
 *   who holds it, its status and progress): the side that changed a part gives it, and where both did,
 *   the remote's board stands; notes and other logs keep both sides' entries;
 * - the runtime store (agents, sessions, questions) is merged record by record the same way;
 * - any other file both changed, and a change one side archived while the other wrote to it, keep
 *   the remote's version;
 * - the activity log is the remote's with this clone's entries since the shared commit appended.
 *
 * Whatever of this clone's writes the remote's board keeps over is named (`dropped`), to be said and
 * logged: nothing is left only in a ref no one looks at.
 */
import { isHeld, type Task } from '../../domain/model.js';
import { parseDocText, type DocFile } from '../documents.js';
import { GAP, renderTaskBlock, serializeTasksBody, type TaskBlock } from '../format-tasks.js';
import { itemTask, taskItem } from '../ledger.js';
import { fingerprint, mergeLogs, sameValue, type Item } from '../merge.js';
import { blobId, type Git } from './git.js';
import type { Dropped } from './state.js';
import { ACTIVITY_DIR, activityChunks, activityTarget, readBlobs, readListing, STATE_PATH, type Listing } from './tree.js';

export interface ForkMerge {
  /** The remote's board, the merge's first parent. */
  theirs: Listing;
  listing: Listing;
  /** The blobs the merge made, by id. */
  data: Map<string, Buffer>;
  /** How many of this clone's writes (its commits since the shared one) the remote lacked. */
  writes: number;
  /** This clone's writes the remote's board keeps over, as activity entries (already in the merged log). */
  dropped: Dropped[];
}

/** The change a tree path belongs to (changes/<id>/… or archive/<date>-<id>/…), or null. */
function changeOf(p: string): string | null {
  return /^changes\/([^/]+)\//.exec(p)?.[1] ?? /^archive\/(?:\d{4}-\d\d-\d\d-)?([^/]+)\//.exec(p)?.[1] ?? null;
}

function folderOf(p: string): string {
  return p.split('/').slice(0, 2).join('/');
}

/**
 * Merges `mine` (this clone's commit) onto `theirs` (the remote's board), from `base`, the commit
 * both histories share. `at` is the merge's time, for the entries it logs.
 */
export function mergeFork(git: Git, base: string, mine: string, theirs: string, at: string, idLength: number): ForkMerge {
  const X = readListing(git, base);
  const M = readListing(git, mine);
  const H = readListing(git, theirs);
  const blobs = readBlobs(git, [...new Set([X, M, H].flatMap((l) => Object.values(l).map((e) => e.blob)))]);
  const text = (l: Listing, p: string) => (l[p] ? blobs.get(l[p]!.blob)!.toString('utf8') : undefined);
  const listing: Listing = { ...H };
  const data = new Map<string, Buffer>();
  const dropped: Dropped[] = [];
  const put = (p: string, bytes: Buffer) => {
    const blob = blobId(bytes, idLength);
    data.set(blob, bytes);
    listing[p] = { blob, size: bytes.length };
  };
  const take = (p: string, from: Listing) => {
    if (from[p]) listing[p] = from[p]!;
    else delete listing[p];
  };

  const paths = new Set([...Object.keys(X), ...Object.keys(M), ...Object.keys(H)].filter((p) => !p.startsWith(ACTIVITY_DIR)));
  const changed = (l: Listing, p: string) => l[p]?.blob !== X[p]?.blob;
  // A change one side archived while the other wrote to it: the remote's folders stand, whole.
  const remoteWhole = new Set<string>();
  for (const id of new Set([...paths].map(changeOf).filter((c): c is string => c !== null))) {
    const of = [...paths].filter((p) => changeOf(p) === id);
    const folders = (l: Listing) => [...new Set(of.filter((p) => l[p]).map(folderOf))].sort().join('\n');
    if (of.some((p) => changed(M, p)) && of.some((p) => changed(H, p)) && folders(M) !== folders(H)) {
      remoteWhole.add(id);
      dropped.push({ action: 'remote.write_dropped', target: id, change_id: id, summary: `this clone's writes to the change ${id} were dropped: the shared board ${folders(H).includes('archive/') ? 'archived it' : 'holds it unarchived'} and wrote to it meanwhile` });
    }
  }

  for (const p of paths) {
    const id = changeOf(p);
    if ((id !== null && remoteWhole.has(id)) || !changed(M, p) || M[p]?.blob === H[p]?.blob) continue;
    if (!changed(H, p)) {
      take(p, M);
      continue;
    }
    const mineText = text(M, p);
    const theirsText = text(H, p);
    if (/^changes\/[^/]+\/tasks\.md$/.test(p) && mineText !== undefined && theirsText !== undefined) {
      const merged = mergeTaskLists(p, text(X, p), mineText, theirsText, id!);
      put(p, Buffer.from(merged.text, 'utf8'));
      dropped.push(...merged.dropped);
    } else if (p === STATE_PATH && mineText !== undefined && theirsText !== undefined) {
      const merged = mergeRuntime(text(X, p), mineText, theirsText);
      if (merged) put(p, Buffer.from(merged.text, 'utf8'));
      else dropped.push({ action: 'remote.write_dropped', target: 'runtime', summary: "this clone's runtime store (agents, sessions, questions) was dropped: it could not be read to merge it" });
      for (const what of merged?.dropped ?? []) dropped.push({ action: 'remote.write_dropped', target: 'runtime', summary: `this clone's version of the ${what} in the runtime store was dropped: the shared board changed it too` });
    } else {
      dropped.push({ action: 'remote.write_dropped', target: p, ...(id ? { change_id: id } : {}), summary: `this clone's version of ${p} was dropped: the shared board ${theirsText === undefined ? 'removed it' : 'changed it too'}` });
    }
  }

  // The activity log: the remote's, then what this clone logged since the shared commit, then what this merge says.
  const log = (l: Listing) => Buffer.concat(activityChunks(l).map((c) => blobs.get(c.entry.blob)!));
  const before = log(X);
  const own = log(M);
  const added = own.subarray(own.subarray(0, before.length).equals(before) ? before.length : own.length);
  const writes = Number(git.must(['rev-list', '--count', `${base}..${mine}`]));
  const lines = [
    ...dropped.map((d) => ({ at, actor: 'agentboard', action: d.action, target: d.target, ...(d.change_id ? { change_id: d.change_id } : {}), summary: d.summary })),
    { at, actor: 'agentboard', action: 'remote.merge', target: 'agentd', summary: `merged ${writes} write${writes === 1 ? '' : 's'} of a clone that the shared board lacked after it was moved back to an older copy (commit ${mine.slice(0, 12)})` },
  ];
  const target = activityTarget(H);
  const chunk = H[target.path] ? blobs.get(H[target.path]!.blob)! : Buffer.alloc(0);
  put(target.path, Buffer.concat([chunk, added, Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), 'utf8')]));
  return { theirs: H, listing, data, writes, dropped };
}

// ---- task lists ---------------------------------------------------------------------------------

function blocksOf(text: string | undefined, file: string): { doc: DocFile<'tasks'> | null; blocks: Map<string, TaskBlock & { task: Task }> } {
  const doc = text === undefined ? null : parseDocText('tasks', text, file);
  const blocks = new Map((doc?.content?.blocks ?? []).flatMap((b) => (b.task ? [[b.id, b as TaskBlock & { task: Task }] as const] : [])));
  return { doc, blocks };
}

function same(a: Task | undefined, b: Task | undefined): boolean {
  return a === undefined || b === undefined ? a === b : fingerprint(taskItem(a)) === fingerprint(taskItem(b));
}

/**
 * A task list both sides changed, merged task by task from the shared version (`base`): a task only
 * one side changed is that side's; a task both changed takes each part from the side that changed
 * it, the remote's where both did (this clone's value is then dropped, and said), with both sides'
 * notes. The remote's text is kept around the tasks; its frontmatter too, unless only this clone's changed.
 */
function mergeTaskLists(file: string, base: string | undefined, mine: string, theirs: string, changeId: string): { text: string; dropped: Dropped[] } {
  const X = blocksOf(base, file).blocks;
  const m = blocksOf(mine, file);
  const h = blocksOf(theirs, file);
  // The frontmatter is the text before the body (null when the body is not the text's end as it is).
  const front = (text: string, doc: DocFile | null) => (doc && text.endsWith(doc.body) ? text.slice(0, text.length - doc.body.length) : null);
  if (!m.doc?.content || !h.doc?.content || front(mine, m.doc) === null || front(theirs, h.doc) === null) return { text: theirs, dropped: [{ action: 'task.write_dropped', target: changeId, change_id: changeId, summary: `this clone's version of ${file} was dropped: it could not be read to merge it` }] };
  const dropped: Dropped[] = [];
  const out: TaskBlock[] = [...h.doc.content.blocks];
  const at = (id: string) => out.findIndex((b) => b.id === id);
  const ids = [...m.blocks.keys(), ...[...h.blocks.keys(), ...X.keys()].filter((id) => !m.blocks.has(id))];
  for (const id of ids) {
    const x = X.get(id)?.task;
    const mb = m.blocks.get(id);
    const hb = h.blocks.get(id);
    if (same(mb?.task, x) || same(mb?.task, hb?.task)) continue;
    if (same(hb?.task, x)) {
      // Only this clone changed it: its version, in its place.
      if (!mb) out.splice(at(id), 1);
      else if (hb) out[at(id)] = { ...out[at(id)]!, raw: mb.raw, task: mb.task };
      else {
        const order = [...m.blocks.keys()];
        const after = order.slice(0, order.indexOf(id)).reverse().find((prev) => at(prev) >= 0);
        out.splice(after === undefined ? 0 : at(after) + 1, 0, { id, raw: mb.raw, task: mb.task, line: 0, gap: GAP });
      }
      continue;
    }
    const ref = `${changeId}/${id}`;
    if (!mb || !hb) {
      dropped.push({ action: 'task.write_dropped', target: ref, change_id: changeId, summary: `this clone's ${mb ? 'version' : 'removal'} of ${ref} was dropped: the shared board ${hb ? 'changed the task' : 'does not have the task'}` });
      continue;
    }
    const [xi, mi, hi] = [x ? taskItem(x) : undefined, taskItem(mb.task), taskItem(hb.task)];
    const part = (name: 'plan' | 'state') => (xi && sameValue(mi[name], xi[name]) ? hi[name] : xi && sameValue(hi[name], xi[name]) ? mi[name] : hi[name]);
    // Both sides' notes, feedback and blockers, in the order they were written.
    const logs = Object.fromEntries(Object.entries(mergeLogs(hi.logs, mi.logs)).map(([name, entries]) => [name, [...entries].sort((a, b) => String(a.at ?? '').localeCompare(String(b.at ?? '')))]));
    const item: Item = { plan: part('plan'), state: part('state'), logs };
    const task = itemTask(id, item);
    out[at(id)] = { ...out[at(id)]!, raw: renderTaskBlock(task), task };
    const lost = (['plan', 'state'] as const).filter((name) => !sameValue(item[name], mi[name]));
    if (lost.length === 0) continue;
    const claim = isHeld(mb.task) && !(isHeld(task) && task.assignee === mb.task.assignee);
    const what = claim ? `${mb.task.assignee}'s claim of ${ref} (claimed ${mb.task.claimed_at ?? 'earlier'})` : `this clone's ${lost.join(' and ')} of ${ref}`;
    const now = isHeld(task) ? `${task.assignee} holds it on the shared board (claimed ${task.claimed_at ?? 'earlier'})` : `the shared board has it ${task.status}`;
    dropped.push({ action: claim ? 'task.claim_dropped' : 'task.write_dropped', target: ref, change_id: changeId, summary: `${what} was dropped: ${now}` });
  }
  const body = serializeTasksBody({ ...h.doc.content, blocks: out });
  const theirsFront = front(theirs, h.doc);
  const frontmatter = base !== undefined && theirsFront === front(base, blocksOf(base, file).doc) ? front(mine, m.doc) : theirsFront;
  return { text: `${frontmatter}${body}`, dropped };
}

// ---- the runtime store --------------------------------------------------------------------------

const RECORDS = ['agents', 'sessions', 'inputs', 'reviewers'] as const;

/** state.json both sides changed, merged record by record; null when a side cannot be read. `dropped` names this clone's records the remote's kept over. */
function mergeRuntime(base: string | undefined, mine: string, theirs: string): { text: string; dropped: string[] } | null {
  let X: Record<string, unknown>, M: Record<string, unknown>, H: Record<string, unknown>;
  try {
    [X, M, H] = [JSON.parse(base ?? '{}'), JSON.parse(mine), JSON.parse(theirs)];
  } catch {
    return null;
  }
  const out = structuredClone(H) as Record<string, Record<string, unknown> | unknown>;
  const dropped: string[] = [];
  for (const kind of RECORDS) {
    const [x, m, h] = [X, M, H].map((d) => (d[kind] ?? {}) as Record<string, unknown>) as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
    const records = (out[kind] ??= {}) as Record<string, unknown>;
    for (const key of new Set([...Object.keys(m), ...Object.keys(x)])) {
      if (sameValue(m[key], x[key]) || sameValue(m[key], h[key])) continue;
      if (!sameValue(h[key], x[key])) {
        dropped.push(`${kind.replace(/s$/, '')} ${key}`);
        continue;
      }
      if (m[key] === undefined) delete records[key];
      else records[key] = m[key];
    }
  }
  out.next_input = Math.max(Number(M.next_input ?? 1), Number(H.next_input ?? 1));
  return { text: `${JSON.stringify(out, null, 2)}\n`, dropped };
}
