/**
 * agentd's board (docs/import-formats.md §3): agentd/changes/<id>/ and agentd/archive/YYYYMMDD-<id>/
 * (<id>/ inside, or flat), each with proposal.md, specs/*.md, tasks.md, REVIEW.md, STATE.yaml and
 * files of its own. Both generations of its documents are read: the ones its MCP tools write
 * (frontmatter, <spec> wrappers, "### R1 - Title" with a yaml block, "### Task 1.1:" with a yaml
 * block) and the ones agents wrote from its skeletons (checklists, "### R1: Title").
 */
import type { Proposal, Requirement, ReviewRound, Spec, Task } from '../domain/model.js';
import { LIMITS } from '../domain/limits.js';
import { charCount } from '../domain/text.js';
import { sectionKey } from '../store/blocks.js';
import { fencedLines, headingLevel, headingText, TextLines } from '../store/markdown.js';
import { groupOrder, leftover, parseChecklist, parseFiles, splitIds, type Checklist, type ChecklistTask } from './checklist.js';
import { attachFile, changeIdFor, checklistTasks, checklistTask, completeProposal, documentFile, keepInOrder, noteRenamed, readProposal, readSpec, refusedChange, rejectDoc, rejectIncompleteSpec, requirementPrefix, unwrap, withoutFrontmatter } from './documents.js';
import type { ImportedChange, ImportPlan } from './model.js';
import { FileLog } from './report.js';
import { readForeignReview, reviewVerdict, type ForeignReview } from './review.js';
import type { SourceTree } from './source.js';

const METADATA = "agentd's metadata of the file; agentboard writes its own frontmatter";
/** STATE.yaml phases after which the work was done, whatever the checkboxes say (agentd never ticks them). */
const FINISHED = new Set(['implemented', 'complete', 'merging', 'archived']);
/** STATE.yaml phases past the plan: agentd went on from its challenges (a NEEDS_REVISION one sets `drafting`). */
const PAST_PLAN = new Set(['planned', 'challenged', 'implementing', 'testing', 'code_reviewing', ...FINISHED]);

/** A challenge of agentd's, and the report of the file it is written in. */
interface Challenge {
  reviewer: string;
  status: string;
  iteration: number;
  text: string;
  log: FileLog;
}

interface ChangeFolder {
  id: string;
  dir: string;
  archived?: string;
}

/** The change folders of an agentd board under `base` (agentd/, or where its originals were set aside). */
function changeFolders(tree: SourceTree, base: string): ChangeFolder[] {
  const out = new Map<string, ChangeFolder>();
  for (const file of tree.files) {
    const open = new RegExp(`^${base}/changes/([^/]+)/`).exec(file);
    if (open) {
      const dir = `${base}/changes/${open[1]}`;
      if (!out.has(dir)) out.set(dir, { id: open[1]!, dir });
      continue;
    }
    const archived = new RegExp(`^${base}/archive/(\\d{4})(\\d\\d)(\\d\\d)-([^/]+)/`).exec(file);
    if (archived) {
      const id = archived[4]!;
      const folder = `${base}/archive/${archived[1]}${archived[2]}${archived[3]}-${id}`;
      const nested = tree.files.some((f) => f.startsWith(`${folder}/${id}/`));
      const dir = nested ? `${folder}/${id}` : folder;
      if (!out.has(dir)) out.set(dir, { id, dir, archived: `${archived[1]}-${archived[2]}-${archived[3]}` });
    }
  }
  return [...out.values()];
}

export function readAgentd(tree: SourceTree, base = 'agentd'): ImportPlan {
  const plan: ImportPlan = { tool: 'agentd', changes: [], files: [] };
  const folders = changeFolders(tree, base);
  const inChange = new Set<string>();
  for (const folder of folders) {
    const files = tree.files.filter((f) => f.startsWith(`${folder.dir}/`));
    files.forEach((f) => inChange.add(f));
    const logs = new Map(files.map((f) => [f, new FileLog(f)]));
    const { id, problem, why } = changeIdFor(folder.id);
    if (problem) plan.changes.push(refusedChange(folder.id, folder.dir, problem));
    else {
      const change = readChange(tree, { ...folder, id }, files, logs);
      noteRenamed(change, folder.id, why);
      plan.changes.push(change);
    }
    plan.files.push(...[...logs.values()].map((l) => l.report));
  }
  for (const file of tree.files) {
    if (inChange.has(file)) continue;
    const log = new FileLog(file);
    log.finding('info', 'a file of the agentd project, not of one of its changes: agentboard has no document for it', 'nothing to do; it stays with agentd\'s originals');
    plan.files.push(log.report);
  }
  plan.files.sort((a, b) => (a.file < b.file ? -1 : 1));
  return plan;
}

function readChange(tree: SourceTree, folder: ChangeFolder, files: string[], logs: Map<string, FileLog>): ImportedChange {
  const change: ImportedChange = { id: folder.id, source: folder.dir, attachments: [] };
  if (folder.archived) change.archived = folder.archived;
  const path = (name: string) => documentFile(files, folder.dir, name, logs);
  const used = new Set<string>();
  const attach = (file: string, why?: string) => {
    const log = logs.get(file)!;
    attachFile(change, folder.dir, file, log);
    if (why) log.finding('info', why, 'nothing to do: the file is kept as it was');
    used.add(file);
  };

  // STATE.yaml tells the phase agentd reached; it is kept as an attachment either way.
  let phase: string | null = null;
  const stateFile = path('STATE.yaml');
  if (files.includes(stateFile)) {
    const state = tree.text(stateFile) ?? '';
    phase = /^phase:[ \t]*(\S+)/m.exec(state)?.[1] ?? null;
    if (phase) logs.get(stateFile)!.mapped(state.split('\n').findIndex((l) => l.startsWith('phase:')) + 1, `phase: ${phase}`, `read as agentd's phase of the change${FINISHED.has(phase) ? ': every task counts as done' : ''}`);
    attach(stateFile);
  }

  const challenges: Challenge[] = [];
  let depends = new Map<string, string[]>();
  let order: string[] = [];
  const proposalFile = path('proposal.md');
  if (files.includes(proposalFile) && tree.text(proposalFile) !== null) {
    const log = logs.get(proposalFile)!;
    const { body, offset, meta } = withoutFrontmatter(tree.text(proposalFile)!, log, METADATA);
    depends = specDepends(meta);
    order = specOrder(meta);
    const kept = takeReviewBlocks(body, offset, log, challenges);
    const proposal = readProposal(unwrap(kept, ['proposal'], offset, log), offset, log);
    if (proposal) {
      const content = withFrontmatterParts({ ...proposal, title: proposal.title || folder.id }, meta, tree.text(proposalFile)!, log);
      change.proposal = { content: completeProposal(content, "agentd's proposal.md", log), from: proposalFile };
      log.went('proposal.md');
      used.add(proposalFile);
    } else attach(proposalFile, 'proposal.md could not be read as a proposal (see the errors); it is kept as an attachment');
  }

  const rank = (f: string) => {
    const i = order.indexOf(f.slice(f.lastIndexOf('/') + 1, -3));
    return i < 0 ? order.length : i;
  };
  // In the order the proposal lists them (a spec after the ones it builds on), else by name.
  const specFiles = files.filter((f) => new RegExp(`^${escape(folder.dir)}/specs/[^/]+\\.md$`).test(f) && !/\/_[^/]*$/.test(f)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  const ids = readSpecs(tree, specFiles, logs, change, depends, used, attach);

  const tasksFile = path('tasks.md');
  if (files.includes(tasksFile) && tree.text(tasksFile) !== null) {
    const done = folder.archived !== undefined || (phase !== null && FINISHED.has(phase));
    const tasks = readTasks(tree.text(tasksFile)!, logs.get(tasksFile)!, done, ids);
    if (tasks) {
      change.tasks = { content: tasks, from: tasksFile };
      logs.get(tasksFile)!.went('tasks.md');
      used.add(tasksFile);
      if (done && folder.archived) logs.get(tasksFile)!.finding('info', 'the change is archived: every task counts as done (agentd never marks them)', 'nothing to do');
    } else attach(tasksFile, 'tasks.md holds no task agentboard can read; it is kept as an attachment');
  }

  const reviewFile = path('REVIEW.md');
  if (files.includes(reviewFile) && tree.text(reviewFile) !== null) {
    const log = logs.get(reviewFile)!;
    const read = readForeignReview(tree.text(reviewFile)!, 1, log);
    const verdict = read.verdict ? reviewVerdict(read.verdict) : null;
    if (verdict && change.tasks && !log.report.findings.some((f) => f.level === 'error')) {
      change.review = { content: [reviewRound(read, verdict)], from: reviewFile };
      log.went('REVIEW.md');
      used.add(reviewFile);
      if (read.verdict !== verdict) log.finding('info', `agentd's verdict ${read.verdict} is agentboard's ${verdict}`, 'nothing to do', read.verdictLine);
    } else {
      attach(reviewFile, !verdict ? `REVIEW.md has no verdict agentboard knows (${read.verdict ?? 'none is ticked'}); it is kept as an attachment` : !change.tasks ? 'REVIEW.md reviews work of a change without a task list; it is kept as an attachment' : 'REVIEW.md could not be read as a review (see the errors); it is kept as an attachment');
    }
  }

  const challengeFile = path('CHALLENGE.md');
  if (files.includes(challengeFile) && tree.text(challengeFile) !== null) {
    const read = readForeignReview(tree.text(challengeFile)!, 1, logs.get(challengeFile)!);
    if (read.verdict) challenges.unshift({ reviewer: 'agentd challenge', status: read.verdict, iteration: 0, text: `CHALLENGE.md (kept in attachments/${challengeFile.slice(folder.dir.length + 1)}) says ${read.verdict}: ${read.summary}`, log: logs.get(challengeFile)! });
    attach(challengeFile, `agentd's challenge of the plan, verdict ${read.verdict ?? 'none'}: kept as an attachment and noted on the documents it judged`);
  }
  keepInOrder(change, logs, used);
  applyChallenges(change, challenges, phase);

  for (const file of files) if (!used.has(file)) attach(file);
  return change;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The summary and impact agentd keeps in a proposal's frontmatter (its tool writes them in the body
 * too; an agent may not): the impact becomes the proposal's Impact when the body has none, the
 * summary its What Changes when the body has none, else a "Summary" section when the body has no
 * such section. The frontmatter lines used are reported as going there.
 */
function withFrontmatterParts(p: Proposal, meta: Record<string, unknown> | null, text: string, log: FileLog): Proposal {
  const out = { ...p };
  const lines = text.split('\n');
  // The key's line and the indented lines under it.
  const took = (key: string, to: string) => {
    const at = lines.findIndex((l) => l.startsWith(`${key}:`));
    let end = at + 1;
    while (end < lines.length && /^[ \t]/.test(lines[end]!)) end++;
    for (const r of log.report.lines) if (r.line > at && r.line <= end) r.to = to;
  };
  const impact = meta?.impact;
  if (!out.impact.trim() && impact && typeof impact === 'object' && !Array.isArray(impact)) {
    const words = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    out.impact = Object.entries(impact as Record<string, unknown>)
      .map(([key, value]) => `- **${words(key)}**: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
      .join('\n');
    took('impact', 'Impact of proposal.md');
  }
  const summary = typeof meta?.summary === 'string' ? meta.summary.trim() : '';
  if (summary && !out.what_changes.trim()) {
    out.what_changes = summary;
    took('summary', 'What Changes of proposal.md');
  } else if (summary && !(out.sections ?? []).some((x) => sectionKey(x.heading) === 'summary')) {
    out.sections = [{ heading: 'Summary', text: summary, after: 'title' }, ...(out.sections ?? [])];
    took('summary', 'the section "Summary" of proposal.md');
  }
  return out;
}

/** affected_specs[].depends of a proposal's frontmatter: which spec builds on which. */
function specDepends(meta: Record<string, unknown> | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const list = meta?.affected_specs;
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (entry && typeof entry === 'object' && typeof (entry as Record<string, unknown>).id === 'string') {
      const d = (entry as Record<string, unknown>).depends;
      if (Array.isArray(d) && d.length > 0) out.set((entry as Record<string, string>).id!, d.map(String));
    }
  }
  return out;
}

/** The spec ids a proposal's frontmatter lists under affected_specs, in its order. */
function specOrder(meta: Record<string, unknown> | null): string[] {
  const list = meta?.affected_specs;
  return Array.isArray(list) ? list.flatMap((e) => (e && typeof e === 'object' && typeof (e as Record<string, unknown>).id === 'string' ? [(e as Record<string, string>).id!] : [])) : [];
}

const REVIEW_OPEN = /^<review\b([^>]*)>$/;

/** Takes agentd's challenge blocks (<review iteration=… reviewer=… status=…>) out of a proposal, keeping their text. */
function takeReviewBlocks(body: string, offset: number, log: FileLog, into: Challenge[]): string {
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = REVIEW_OPEN.exec(lines[i]!.trim());
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && l.trim() === '</review>');
    if (end < 0) break;
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(open[1]!)?.[1] ?? '';
    const status = attr('status').toUpperCase().replace(/[\s-]+/g, '_');
    const text = lines.slice(i + 1, end).join('\n').trim();
    into.push({ reviewer: attr('reviewer') || 'agentd challenge', status, iteration: Number(attr('iteration')) || 0, text, log });
    const where = `the challenge of iteration ${attr('iteration') || '?'} (${status}), kept as a note or feedback of the documents it judged`;
    log.mapped(offset + i + 1, lines[i]!, where);
    log.mapped(offset + end + 1, lines[end]!, where);
    for (let k = i; k <= end; k++) lines[k] = '';
  }
  return lines.join('\n');
}

/**
 * A challenge judges the plan: the latest one asking for a revision rejects the spec (or the
 * proposal, when there is no spec) with its text as feedback, unless STATE.yaml says agentd went on
 * past the plan since; every other one is a note.
 */
function applyChallenges(change: ImportedChange, challenges: Challenge[], phase: string | null): void {
  if (challenges.length === 0 || !change.proposal) return;
  const latest = challenges[challenges.length - 1]!;
  const target = change.spec ?? change.proposal;
  const notes: { author: string; text: string }[] = [];
  for (const c of challenges) {
    const text = c.iteration ? `Challenge of iteration ${c.iteration} by ${c.reviewer}: ${c.status}\n\n${c.text}` : c.text;
    const rejects = c === latest && (c.status === 'NEEDS_REVISION' || c.status === 'REJECTED');
    if (rejects && phase !== null && PAST_PLAN.has(phase)) {
      c.log.finding('warning', `the latest challenge (${c.status}) asks for a revision, but agentd's STATE.yaml says the change went on to "${phase}": the challenge is kept as a note, and nothing is rejected`, `nothing to do, or reject the ${target === change.spec ? 'spec' : 'proposal'} on the board if the revision is still wanted`);
      notes.push({ author: c.reviewer, text });
    } else if (rejects) rejectDoc(target, c.reviewer, text);
    else notes.push({ author: c.reviewer, text });
  }
  if (notes.length > 0) change.proposal.notes = [...(change.proposal.notes ?? []), ...notes];
}

/** Several spec files become one spec: a requirements section per file, ids given the file's prefix when they have none. */
function readSpecs(
  tree: SourceTree,
  files: string[],
  logs: Map<string, FileLog>,
  change: ImportedChange,
  depends: Map<string, string[]>,
  used: Set<string>,
  attach: (file: string, why?: string) => void,
): Map<string, Map<string, string>> {
  const ids = new Map<string, Map<string, string>>();
  const read: { name: string; file: string; spec: Spec; title: string | null; lines: number[]; offset: number }[] = [];
  const unread: string[] = [];
  for (const file of files) {
    const text = tree.text(file);
    const log = logs.get(file)!;
    if (text === null) continue;
    const { body, offset, meta } = withoutFrontmatter(text, log, METADATA);
    const r = readSpec(unwrap(body, ['spec'], offset, log), offset, log);
    if (!r) {
      attach(file, 'the spec could not be read (see the errors); it is kept as an attachment');
      unread.push(file);
      continue;
    }
    const name = file.slice(file.lastIndexOf('/') + 1, -3);
    read.push({ name, file, spec: r.spec, title: typeof meta?.title === 'string' ? meta.title : null, lines: r.lines.requirements, offset });
  }
  if (read.length === 0) return ids;
  const several = read.length > 1;
  const merged: Spec = { title: several ? (change.proposal?.content.title ?? change.id) : read[0]!.spec.title || read[0]!.title || change.id, overview: '', requirements: [], scenarios: [] };
  const prefixes = new Set<string>();
  const overviews: string[] = [];
  const dataModels: string[] = [];
  const interfaces: string[] = [];
  for (const { name, file, spec, lines, offset } of read) {
    const log = logs.get(file)!;
    const prefix = requirementPrefix(name, prefixes);
    const map = new Map<string, string>();
    ids.set(name, map);
    spec.requirements.forEach((r, i) => {
      const id = several && /^[A-Z]*\d+$/.test(r.id) ? `${prefix}-${r.id}` : r.id;
      map.set(r.id, id);
      const req: Requirement = { ...r, id };
      if (several) req.group = name;
      merged.requirements.push(req);
      if (id !== r.id) log.mapped(offset + lines[i]!, `### ${r.id}`, `requirement ${id} of spec.md`);
    });
    for (const s of spec.scenarios) merged.scenarios.push(s.requirement ? { ...s, requirement: map.get(s.requirement) ?? s.requirement } : s);
    const after = depends.get(name);
    overviews.push(several ? `**${name}**${after ? ` (depends on ${after.join(', ')})` : ''}: ${spec.overview}` : spec.overview);
    if (spec.data_model) dataModels.push(several ? `**${name}**:\n\n${spec.data_model}` : spec.data_model);
    if (spec.interfaces) interfaces.push(several ? `**${name}**:\n\n${spec.interfaces}` : spec.interfaces);
    for (const section of spec.sections ?? []) {
      merged.sections ??= [];
      merged.sections.push(several ? { ...section, heading: section.heading ? `${section.heading} (${name})` : name } : section);
    }
    log.went('spec.md');
    used.add(file);
  }
  merged.overview = overviews.join('\n\n');
  // agentd asks for an Overview, not for its length: one shorter than the board asks for gets a sentence saying the source gives no more, as a short Why does.
  const short = charCount(merged.overview.trim());
  if (read.length > 0 && short < LIMITS.overviewMin) {
    merged.overview = short > 0 ? `${merged.overview.trim()}\n\nagentd's spec says no more of what the change is.` : "agentd's spec gives no overview of what the change is.";
    logs.get(read[0]!.file)?.finding('warning', short > 0 ? `the Overview has ${short} characters, fewer than the ${LIMITS.overviewMin} agentboard asks for; a sentence saying the source gives no more was added` : "agentd's spec has no Overview, which agentboard asks for; the spec says it gives none", 'write the overview of the change in its spec.md on the board');
  }
  if (dataModels.length) merged.data_model = dataModels.join('\n\n');
  if (interfaces.length) merged.interfaces = interfaces.join('\n\n');
  change.spec = { content: merged, from: several ? `${change.source}/specs` : read[0]!.file };
  rejectIncompleteSpec(change, unread, logs);
  return ids;
}

/** The requirement a task's spec reference names: "specs/tag-model.md#r1-tag-normalization" or "note-storage:R2". */
function requirementOf(ref: string, ids: Map<string, Map<string, string>>): string | null {
  const colon = /^([\w-]+):([A-Za-z0-9-]+)$/.exec(ref.trim());
  if (colon) return ids.get(colon[1]!)?.get(colon[2]!) ?? null;
  const anchor = /(?:^|\/)([\w-]+)\.md#([\w-]+)$/.exec(ref.trim());
  if (!anchor) return null;
  const map = ids.get(anchor[1]!);
  if (!map) return null;
  for (const [original, id] of map) {
    const slug = original.toLowerCase();
    if (anchor[2] === slug || anchor[2]!.startsWith(`${slug}-`)) return id;
  }
  return null;
}

const TASK_B = /^###[ \t]+Task[ \t]+([A-Za-z0-9][\w.-]*):[ \t]*(.*)$/;
/** A task block headed by its number alone ("### 1.1 Create the module"), as agents also write them. */
const TASK_NUMBERED = /^###[ \t]+(\d+(?:\.\d+)*)[:.]?[ \t]+(.*)$/;

/** agentd's tasks.md: "### Task 1.1: Title" with a yaml block (its MCP tool), or a checklist (its skeleton). */
function readTasks(text: string, log: FileLog, allDone: boolean, ids: Map<string, Map<string, string>>): { title: string; intro?: string; tasks: Task[] } | null {
  const { body, offset } = withoutFrontmatter(text, log, `${METADATA} (its counts are never updated)`);
  const unwrapped = unwrap(body, ['tasks', 'meta'], offset, log);
  // The blocks agentd's tool writes; else a checklist; else blocks headed by their number.
  const list = body.split('\n').some((l) => TASK_B.test(l)) ? readTaskBlocks(unwrapped, offset + 1) : (parseChecklist(unwrapped, offset + 1, { marks: true }) ?? readTaskBlocks(unwrapped, offset + 1));
  if (!list) return null;
  return checklistTasks(list, log, groupOrder, (t) => {
    const task = checklistTask(t, allDone || t.done);
    for (const ref of t.specRefs) {
      const id = requirementOf(ref, ids);
      if (id && !task.requirements.includes(id)) task.requirements.push(id);
    }
    return task;
  });
}

/** The "### Task <id>: <title>" blocks agentd's create_tasks writes (or "### <number> <title>" ones), each with a ```yaml block of its fields; null when there is none. */
function readTaskBlocks(body: string, firstLine: number): Pick<Checklist, 'title' | 'intro' | 'tasks' | 'mapped' | 'findings'> | null {
  const lines = new TextLines(body);
  const inFence = fencedLines(lines);
  const taken = new Array<boolean>(lines.length).fill(false);
  const tasks: ChecklistTask[] = [];
  const mapped: Checklist['mapped'] = [];
  const findings: Checklist['findings'] = [];
  let titleLine = -1;
  let title = '';
  let group: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines.line(i);
    const level = inFence[i] ? 0 : headingLevel(line);
    if (level === 1 && titleLine < 0) {
      titleLine = i;
      title = headingText(line).replace(/^(?:implementation[ \t]+)?tasks?\b\s*:?\s*/i, '');
      mapped.push({ line: firstLine + i, text: line, to: 'the title of the task list' });
      continue;
    }
    if (level === 2) group = headingText(line);
    const m = level === 3 ? (TASK_B.exec(line.trim()) ?? TASK_NUMBERED.exec(line.trim())) : null;
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && (inFence[end] || headingLevel(lines.line(end)) === 0 || headingLevel(lines.line(end)) > 3)) end++;
    const fields: Record<string, string> = {};
    const fieldLines: Record<string, number> = {};
    const description: string[] = [];
    let inYaml = false;
    let yamlDone = false;
    for (let j = i + 1; j < end; j++) {
      const l = lines.line(j);
      if (!yamlDone && !inYaml && /^```ya?ml\s*$/.test(l)) {
        inYaml = true;
        mapped.push({ line: firstLine + j, text: l, to: `the fields of task ${m[1]}` });
        continue;
      }
      if (inYaml) {
        if (/^```\s*$/.test(l)) {
          inYaml = false;
          yamlDone = true;
          mapped.push({ line: firstLine + j, text: l, to: `the fields of task ${m[1]}` });
          continue;
        }
        const kv = /^([a-z_]+):[ \t]*(.*)$/.exec(l);
        if (kv) {
          fields[kv[1]!] = kv[2]!.trim();
          fieldLines[kv[1]!] = firstLine + j;
        }
        mapped.push({ line: firstLine + j, text: l, to: `task ${m[1]}: ${kv ? kv[1] : 'field'}` });
        continue;
      }
      description.push(l);
    }
    for (let j = i; j < end; j++) taken[j] = true;
    // An id is text: YAML would read "1.10" as the number 1.1, so it is taken from the heading.
    const id = m[1]!;
    const task: ChecklistTask = {
      id,
      generated: false,
      title: m[2]!.trim(),
      description: description.join('\n').trim(),
      done: fields.status === 'completed' || fields.status === 'done',
      files: [],
      depends: fields.depends_on ? splitIds(fields.depends_on.replace(/^\[|\]$/g, '')) : [],
      requirements: [],
      parallel: false,
      specRefs: fields.spec_ref ? [fields.spec_ref] : [],
      line: firstLine + i,
    };
    if (fields.file) {
      const written = `${fields.file}${fields.action ? ` (${fields.action})` : ''}`;
      const read = parseFiles(written);
      task.files = read.files;
      if (read.problem) {
        task.description = [task.description, `File: ${written}`].filter(Boolean).join('\n\n');
        findings.push({ level: 'error', line: fieldLines.action ?? fieldLines.file, message: `task ${id}: ${read.problem}`, fix: 'give the file an action: CREATE, MODIFY, DELETE or RENAME', kept: true });
      }
    }
    if (group !== undefined) task.group = group;
    mapped.push({ line: firstLine + i, text: line, to: `task ${id}` });
    tasks.push(task);
    i = end - 1;
  }
  if (tasks.length === 0) return null;
  return { title, intro: leftover(lines, inFence, taken, titleLine, tasks, firstLine, mapped), tasks, mapped, findings };
}

/** agentd's code review as one review round (its reviewer and time are set when it lands). */
function reviewRound(read: ForeignReview, verdict: ReviewRound['verdict']): ReviewRound {
  const round: ReviewRound = {
    round: read.round ?? 1,
    verdict,
    reviewer: '',
    at: '',
    summary: read.summary || `Code review${read.round ? ` of iteration ${read.round}` : ''} brought over from agentd, which gave it no summary; its other sections follow the issues.`,
    issues: read.issues,
  };
  if (read.sections.length > 0) round.sections = read.sections;
  return round;
}
