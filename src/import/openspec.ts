/**
 * OpenSpec's changes (docs/import-formats.md §1): openspec/changes/<name>/ and
 * openspec/changes/archive/YYYY-MM-DD-<name>/, each with proposal.md, design.md, tasks.md and a
 * delta spec per capability (specs/<capability>/spec.md). The capabilities become one spec.md
 * with a requirements section per capability and delta, ids prefixed with the capability
 * (BOOKMARKS-R1), each scenario linked to its requirement; task groups in order become dependencies.
 */
import type { Requirement, Spec } from '../domain/model.js';
import { groupOrder, parseChecklist } from './checklist.js';
import { attachFile, changeIdFor, checklistTasks, completeProposal, documentFile, keepInOrder, keptAs, noteRenamed, readDesign, readProposal, readSpec, refusedChange, rejectIncompleteSpec, requirementPrefix, withoutFrontmatter } from './documents.js';
import type { ImportedChange, ImportPlan } from './model.js';
import { FileLog } from './report.js';
import type { SourceTree } from './source.js';
import { parseSpecBody } from '../store/format-spec.js';
import { FindingSink } from '../domain/findings.js';
import { refTo } from '../domain/refs.js';
import { BOARD_DIR } from '../store/board.js';

const ROOT = 'openspec/changes';

export function readOpenSpec(tree: SourceTree): ImportPlan {
  const plan: ImportPlan = { tool: 'openspec', changes: [], files: [] };
  const folders = new Map<string, { name: string; archived?: string }>();
  /** Folders of the archive with no date in their name: whether their day is that of their last commit (else today's). */
  const undated = new Map<string, boolean>();
  for (const file of tree.files) {
    const archived = /^openspec\/changes\/archive\/(\d{4}-\d\d-\d\d)-([^/]+)\//.exec(file);
    if (archived) {
      folders.set(`${ROOT}/archive/${archived[1]}-${archived[2]}`, { name: archived[2]!, archived: archived[1]! });
      continue;
    }
    // A change archived by hand, its folder moved without the date `openspec archive` puts before its name.
    const byHand = /^openspec\/changes\/archive\/([^/]+)\//.exec(file);
    if (byHand) {
      const dir = `${ROOT}/archive/${byHand[1]}`;
      if (!folders.has(dir)) {
        const day = tree.lastCommitDay(dir);
        folders.set(dir, { name: byHand[1]!, archived: day ?? new Date().toISOString().slice(0, 10) });
        undated.set(dir, day !== null);
      }
      continue;
    }
    const open = /^openspec\/changes\/([^/]+)\//.exec(file);
    if (open && open[1] !== 'archive') folders.set(`${ROOT}/${open[1]}`, { name: open[1]! });
  }
  const inChange = new Set<string>();
  for (const [dir, { name, archived }] of [...folders].sort()) {
    const files = tree.files.filter((f) => f.startsWith(`${dir}/`));
    files.forEach((f) => inChange.add(f));
    const logs = new Map(files.map((f) => [f, new FileLog(f)]));
    const { id, problem, why } = changeIdFor(name);
    if (problem) plan.changes.push(refusedChange(name, dir, problem));
    else {
      const change = readChange(tree, dir, id, archived, files, logs);
      noteRenamed(change, name, why);
      if (undated.has(dir)) {
        const when = undated.get(dir) ? 'the day of the last commit that changed the folder' : 'today, as the repository has no commit of it';
        (change.findings ??= []).push({ level: 'warning', message: `the archived change's folder has no date before its name (YYYY-MM-DD-${name}, as \`openspec archive\` names it): it lands archived on ${archived}, ${when}`, fix: `nothing to do, or rename the folder to the day it was archived (YYYY-MM-DD-${name}) in the source before importing` });
      }
      plan.changes.push(change);
    }
    plan.files.push(...[...logs.values()].map((l) => l.report));
  }
  for (const file of tree.files) {
    if (inChange.has(file)) continue;
    const log = new FileLog(file);
    const current = /^openspec\/specs\/(.+)\/spec\.md$/.exec(file);
    log.finding(
      'info',
      current
        ? `the current spec of the capability "${current[1]}", which OpenSpec merged from archived changes: agentboard keeps specs with their changes, so it stays where it is (its purpose is quoted in the overview of changes that modify it)`
        : 'a file of the OpenSpec project, not of one of its changes: agentboard has no document for it',
      'nothing to do; it stays where it is',
    );
    plan.files.push(log.report);
  }
  plan.files.sort((a, b) => (a.file < b.file ? -1 : 1));
  return plan;
}

/** "Proposal:" or "Change Proposal:" before a proposal's own title. */
const PROPOSAL_PREFIX = /^(?:change\s+)?proposal\s*[:：—–-]\s*(?=\S)/i;

function readChange(tree: SourceTree, dir: string, id: string, archived: string | undefined, files: string[], logs: Map<string, FileLog>): ImportedChange {
  const change: ImportedChange = { id, source: dir, attachments: [] };
  if (archived) change.archived = archived;
  const used = new Set<string>();
  const path = (name: string) => documentFile(files, dir, name, logs);
  const text = (file: string) => (files.includes(file) ? tree.text(file) : null);

  const proposalFile = path('proposal.md');
  const proposalText = text(proposalFile);
  if (proposalText !== null) {
    const log = logs.get(proposalFile)!;
    const { body, offset } = withoutFrontmatter(proposalText, log, 'frontmatter of the file, not part of the proposal');
    const proposal = readProposal(body, offset, log);
    // A proposal that states nothing (an empty file) is no proposal: the import writes no text of its own in its place.
    const says = proposal && [proposal.why, proposal.what_changes, proposal.impact, ...(proposal.sections ?? []).map((x) => x.text)].some((t) => t.trim() !== '');
    if (proposal && !says) {
      log.finding('warning', `${body.trim() === '' ? 'proposal.md is empty: it states' : 'proposal.md states'} no Why, What Changes or Impact, so no proposal.md was written: this file is kept as ${keptAs(change, proposalFile)}`, `write the proposal of the change (why it is needed, what changes, its impact) with ${refTo('proposal.submit', { change_id: id })}`);
    }
    if (proposal && says) {
      // OpenSpec titles every proposal "# Proposal": the change's name says more. A title of its
      // own after "Proposal:" or "Change Proposal:" is the title (the board puts "Proposal:" before it).
      let title = !proposal.title || /^proposal$/i.test(proposal.title) ? id : proposal.title;
      if (PROPOSAL_PREFIX.test(title)) {
        title = title.replace(PROPOSAL_PREFIX, '');
        const lines = body.split('\n');
        const at = lines.findIndex((l) => /^#\s/.test(l));
        if (at >= 0) log.mapped(offset + at + 1, lines[at]!, `the title of proposal.md ("Proposal: ${title}")`);
      }
      // Impact is optional in OpenSpec, and its Why may be shorter than agentboard's.
      const content = completeProposal({ ...proposal, title }, 'the OpenSpec proposal', log);
      change.proposal = { content, from: proposalFile };
      log.went('proposal.md');
      used.add(proposalFile);
    }
  }

  const designFile = path('design.md');
  const designText = text(designFile);
  if (designText !== null) {
    const design = readDesign(designText, logs.get(designFile)!);
    change.design = { content: design, from: designFile };
    used.add(designFile);
  }

  const capabilities = new Set(files.filter((f) => f.startsWith(`${dir}/specs/`) && /\/spec\.md$/i.test(f)).map((f) => f.slice(0, f.lastIndexOf('/'))));
  const specFiles = [...capabilities].map((capability) => documentFile(files, capability, 'spec.md', logs)).filter((f) => files.includes(f));
  if (specFiles.length > 0) readDeltas(tree, dir, specFiles, logs, change, used);

  const tasksFile = path('tasks.md');
  const tasksText = text(tasksFile);
  if (tasksText !== null) {
    const log = logs.get(tasksFile)!;
    const { body, offset } = withoutFrontmatter(tasksText, log, 'frontmatter of the file, not part of the task list');
    const list = parseChecklist(body, offset + 1, { marks: true });
    if (list) {
      change.tasks = { content: checklistTasks(list, log, groupOrder), from: tasksFile };
      log.went('tasks.md');
      used.add(tasksFile);
    }
  }

  keepInOrder(change, logs, used);
  for (const file of files) if (!used.has(file)) attachFile(change, dir, file, logs.get(file)!);
  // A change folder with no document (a .gitkeep, say) lands with none: the row says so, and what to write.
  if (!change.proposal && !change.spec && !change.tasks && !change.design && !change.archived && proposalText === null) {
    const kept = files.length > 0 ? `its files are kept in ${BOARD_DIR}/changes/${id}/attachments/` : 'its folder is empty';
    (change.findings ??= []).push({ level: 'warning', message: `the change has no proposal.md, spec or tasks.md, so none was written (${kept})`, fix: `write its proposal with ${refTo('proposal.submit', { change_id: id })}, then its spec` });
  }
  return change;
}

const RENAMED_FROM = /^(?:[-*+][ \t]+)?FROM:[ \t]*`?(?:###[ \t]*)?(?:Requirement:[ \t]*)?(.+?)`?[ \t]*$/im;

/**
 * The text of a requirement of a delta. What a change removes or renames asks nothing of the
 * system, so its text starts by saying what the change does to it (with the old name of a renamed
 * one), and keeps what the delta says (a removal's Reason and Migration, a rename's FROM and TO).
 */
function deltaText(r: Requirement, capability: string): string {
  let said: string;
  if (r.delta === 'REMOVED') said = `This change removes the requirement "${r.title}" from the capability ${capability}.`;
  else if (r.delta === 'RENAMED') {
    const from = RENAMED_FROM.exec(r.text)?.[1]?.trim();
    said = from ? `This change renames the requirement "${from}" of the capability ${capability} to "${r.title}".` : `This change renames a requirement of the capability ${capability} to "${r.title}".`;
  } else return r.text;
  return r.text.trim() ? `${said}\n\n${r.text}` : said;
}

/** The purpose of a capability as its current spec states it; null when there is none. */
function currentPurpose(tree: SourceTree, capability: string): string | null {
  const text = tree.files.includes(`openspec/specs/${capability}/spec.md`) ? tree.text(`openspec/specs/${capability}/spec.md`) : null;
  if (!text) return null;
  const overview = parseSpecBody(text, new FindingSink('')).spec.overview.trim();
  return overview || null;
}

function readDeltas(tree: SourceTree, dir: string, files: string[], logs: Map<string, FileLog>, change: ImportedChange, used: Set<string>): void {
  const merged: Spec = { title: change.proposal?.content.title ?? change.id, overview: '', requirements: [], scenarios: [] };
  const purposes: string[] = [];
  const prefixes = new Set<string>();
  const without: string[] = [];
  const unread: string[] = [];
  for (const file of files) {
    const capability = file.slice(dir.length + '/specs/'.length, -'/spec.md'.length);
    const log = logs.get(file)!;
    const source = tree.text(file);
    if (source === null) continue;
    const { body, offset } = withoutFrontmatter(source, log, 'frontmatter of the file, not part of the spec');
    const read = readSpec(body, offset, log);
    if (!read) {
      unread.push(file);
      continue;
    }
    const prefix = requirementPrefix(capability, prefixes);
    if (prefix !== capability.toUpperCase()) log.finding('info', `the requirements of the capability ${capability} are numbered ${prefix}-R1, ${prefix}-R2… (a requirement id is A-Z, 0-9 and dashes)`, 'nothing to do');
    if (read.spec.requirements.length === 0) without.push(file);
    const ids = new Map<string, string>();
    const lines = source.split('\n');
    read.spec.requirements.forEach((r, i) => {
      const id = `${prefix}-R${i + 1}`;
      ids.set(r.id, id);
      const req: Requirement = { ...r, id, group: capability, text: deltaText(r, capability) };
      merged.requirements.push(req);
      const line = offset + read.lines.requirements[i]!;
      log.mapped(line, lines[line - 1] ?? '', `requirement ${id} of spec.md (${r.delta ?? 'current'}, capability ${capability})`);
    });
    for (const s of read.spec.scenarios) merged.scenarios.push(s.requirement ? { ...s, requirement: ids.get(s.requirement) ?? s.requirement } : s);
    let purpose = read.spec.overview.trim();
    if (!purpose) {
      const current = currentPurpose(tree, capability);
      if (current) {
        purpose = `${current} (the purpose of its current spec, openspec/specs/${capability}/spec.md)`;
        log.finding('info', `the delta has no purpose; the overview quotes the one of the current spec of ${capability}`, 'nothing to do');
      }
    }
    purposes.push(`- **${capability}**: ${purpose || '(no purpose written)'}`);
    for (const section of read.spec.sections ?? []) {
      merged.sections ??= [];
      const intro = merged.sections.find((x) => x.heading === '' && x.after === 'title');
      if (section.heading === '' && intro) intro.text = `${intro.text}\n\n${section.text}`;
      else merged.sections.push({ ...section, heading: section.heading ? `${section.heading} (${capability})` : '' });
    }
    if (read.spec.data_model) merged.data_model = [merged.data_model, `**${capability}**:\n\n${read.spec.data_model}`].filter(Boolean).join('\n\n');
    if (read.spec.interfaces) merged.interfaces = [merged.interfaces, `**${capability}**:\n\n${read.spec.interfaces}`].filter(Boolean).join('\n\n');
    log.went('spec.md');
    used.add(file);
  }
  if (!files.some((f) => used.has(f))) return;
  if (merged.requirements.length > 0) {
    for (const file of without) logs.get(file)!.finding('warning', 'no requirement agentboard reads is in this file ("### Requirement: Name" headings under "## ADDED Requirements" and the like): its text is kept in spec.md as sections', 'write its requirements on the board, in spec.md');
  }
  merged.overview = `The requirements this change adds, modifies, removes or renames, by capability:\n\n${purposes.join('\n')}`;
  change.spec = { content: merged, from: `${dir}/specs` };
  rejectIncompleteSpec(change, unread, logs);
}
