/**
 * `agentboard board`: the person's live console. Four panes (the tasks as columns, the agents,
 * what waits on the person, the changes), a detail view for a task or a change, and the person's
 * acts in place. The board comes from a ConsoleSource; this file only turns keys into moves and acts.
 */
import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ConsoleSnapshot } from '../../console/cards.js';
import type { ConsoleAction, ConsoleSource } from '../../console/source.js';
import { refTo } from '../../domain/refs.js';
import { decisionLines, decisionRows, DecisionPrompt, type Draft, type PromptKeys } from '../DecisionPrompt.js';
import { isPaste, useKeys } from '../keys.js';
import { AgentsPane } from './AgentsPane.js';
import { BoardPane } from './BoardPane.js';
import { ChangeDetail, ChangesPane } from './ChangesPane.js';
import { clamp, cut, dropLast, textWidth, typedTail, wrapAtMost } from './format.js';
import { Header, TabBar } from './Header.js';
import { helpHints, helpLines } from './Help.js';
import { FRAME_ROWS, PromptBox } from './PromptBox.js';
import { pickKeys, QuestionPrompt, questionLines, questionRows, type Question } from './QuestionPrompt.js';
import { ScrollLines } from './ScrollLines.js';
import { shareRows, tooSmall, useSize, type ScreenControl } from './screen.js';
import { changeOf, claimGone, claimOf, decisionOf, fileOf, fitHints, hints, questionOf, seenOf, selectedTarget, taskOf, type Cursors, type Decision, type Seen } from './targets.js';
import { TaskDetail } from './TaskDetail.js';
import { WaitingPane } from './WaitingPane.js';
import { COLUMNS, follow, makeColumns, makeViews, PANES } from './views.js';

/**
 * A prompt open at the foot of the screen. One that closed by itself (its question ran out of time
 * or was answered elsewhere, its document was decided elsewhere) stays there saying so, and takes
 * every key until Esc or Enter: the keys the person was typing into it never reach the board.
 */
type Prompt =
  // `lines`: the first lines of the document decided on, once read.
  | ({ kind: 'decision'; start: 'choice' | 'feedback'; lines?: string[] } & Decision)
  // `unchosen`: the question came under the cursor by itself (see slid): no option is selected until the person picks one.
  | { kind: 'question'; question: Question; unchosen: boolean }
  // `gone`: why what it asks about is no longer there to act on (see Decision's), or null while it is.
  | { kind: 'confirm'; text: string; action: ConsoleAction; gone: (snapshot: ConsoleSnapshot) => string | null }
  | { kind: 'closed'; title: string; text: string };

interface Ui extends Cursors {
  filter: string;
  filtering: boolean;
  scroll: number;
  prompt: Prompt | null;
  message: { ok: boolean; text: string; next?: string } | null;
  /** What is being done, while an act runs. */
  busy: string | null;
  /** q was pressed while an act ran: the console quits once it is done. */
  leaving: boolean;
}

const START: Ui = { pane: 'board', col: 0, rows: COLUMNS.map(() => 0), agent: 0, waiting: 0, change: 0, filter: '', filtering: false, overlay: null, scroll: 0, prompt: null, message: null, busy: null, leaving: false };
/** Why a prompt closed by itself is read whole, even on a small terminal. */
const CLOSED_LINES = 3;
/** What l (or Esc) does in the console's decision prompt. */
const LATER = 'later (Esc)';
/** The lines of a result in the footer: one when it fits, else its text and its next step each on up to two lines of their own. */
function messageLines(m: { ok: boolean; text: string; next?: string }, width: number): { text: string; next?: string }[] {
  const text = `${m.ok ? '✓' : '✗'} ${m.text}`;
  const next = m.next ? `next: ${m.next}` : '';
  if (textWidth(text) + (next ? 1 + textWidth(next) : 0) <= width) return [{ text, ...(next ? { next } : {}) }];
  return [...wrapAtMost(text, width, 2).map((l) => ({ text: l })), ...(next ? wrapAtMost(next, width, 2).map((l) => ({ text: '', next: l })) : [])];
}

/** The footer's hints while a prompt takes the keys: at a line being typed, at a decision's choices, at a question's options. */
const TYPING_HINTS: [string, string][] = [['Enter', 'send'], ['Esc', 'back'], ['Ctrl-C', 'quit']];
const DECISION_HINTS: [string, string][] = [['a', 'approve'], ['r', 'reject'], ['l/Esc', 'later'], ['Ctrl-C', 'quit']];
const questionHints = (options: number): [string, string][] => [[pickKeys(options), 'answer'], ['t', 'type'], ['Esc', 'back'], ['Ctrl-C', 'quit']];
const WORKING: Record<ConsoleAction['type'], string> = { approve_document: 'Approving', reject_document: 'Rejecting', approve_task: 'Approving', reject_task: 'Rejecting', answer: 'Answering', release_task: 'Releasing' };

export function ConsoleApp({ source, screen, onQuit, onSuspend, width, height, plain = false }: { source: ConsoleSource; screen: ScreenControl; onQuit: () => void; onSuspend?: () => void; width?: number; height?: number; plain?: boolean }) {
  const snapshot = useSyncExternalStore(source.subscribe, source.get);
  const lent = useSyncExternalStore(screen.subscribe, screen.get);
  const size = useSize({ width, height });
  const [, rerender] = useState(0);
  // What the screen shows, kept here rather than in a render's copy: an act that ends after an await starts from the latest.
  const ui = useRef<Ui>(START);
  const promptKeys: PromptKeys = useRef(null);
  // A console that quit takes no more keys: those read with q were typed at a screen that is going away.
  const quitting = useRef(false);
  const quit = () => {
    quitting.current = true;
    onQuit();
  };
  const draft: Draft = useRef(null);
  const set = (patch: Partial<Ui>) => {
    // A prompt opening starts from its start.
    if (patch.prompt !== undefined) draft.current = null;
    ui.current = { ...ui.current, ...patch };
    rerender((n) => n + 1);
  };
  // q halfway through an act quits once the act is done: what the person did is saved whole, not
  // cut off. The keys after q are not taken: they were typed at a screen that is going away.
  const leave = () => {
    if (!ui.current.busy) return quit();
    quitting.current = true;
    set({ leaving: true });
  };
  /** An act is done: a console the person quit meanwhile goes, unless the act failed: the person reads why first. */
  const done = (ok: boolean) => {
    if (!ui.current.leaving) return;
    if (ok) return quit();
    quitting.current = false;
    set({ leaving: false });
  };
  const columns = useMemo(() => makeColumns(snapshot.tasks, ui.current.filter), [snapshot.tasks, ui.current.filter]);
  const views = useMemo(() => makeViews(snapshot, ui.current.filter, columns), [snapshot, ui.current.filter, columns]);
  const viewsRef = useRef(views);
  const snapshotRef = useRef(snapshot);
  // The selection changed by itself since the person's last key but a (the item they chose left the
  // list, or was submitted again): what they chose, kept until their next key. a approves only what
  // the person chose, and a question opened on an item that came by itself has no option selected:
  // a or Enter held down, or pressed again after an act, does not go on to act on the next item.
  const slid = useRef<{ from: Seen | null } | null>(null);
  if (viewsRef.current !== views) {
    const was = seenOf(selectedTarget(snapshotRef.current, viewsRef.current, ui.current));
    ui.current = { ...ui.current, ...follow(ui.current, viewsRef.current, views) };
    const is = seenOf(selectedTarget(snapshot, views, ui.current));
    if (snapshotRef.current !== snapshot && !slid.current && (was?.item !== is?.item || was?.version !== is?.version)) slid.current = { from: was };
    viewsRef.current = views;
  }
  snapshotRef.current = snapshot;
  // What the view drawn tells the keys: how far a detail scrolls, and how many items or lines a page is.
  const bottom = useRef(0);
  const shown = useRef(1);
  const u = ui.current;
  const now = Date.parse(snapshot.at);
  const single = snapshot.scope !== null;
  const small = tooSmall(size);

  // A prompt's texts are wrapped to its width, each on at most `room` lines, so that the pane keeps rows of its own; two at least, for who asks, the countdown and the default action.
  const room = Math.max(2, Math.floor((size.height - 12) / 2));
  let details: string[] = [];
  let closed: { title: string[]; text: string[] } | null = null;
  let wants = 0;
  if (u.prompt?.kind === 'decision') {
    details = u.prompt.details.flatMap((d) => wrapAtMost(d, size.width - 4, room));
    const asked = decisionLines(u.prompt.subject, LATER, size.width, room);
    // The document's lines, each on one line, as many as leave the pane behind three rows of its own (or what it has).
    const spare = shareRows(size.height, decisionRows(asked, details.length)).pane - 3;
    details.push(...(u.prompt.lines ?? []).slice(0, Math.max(0, Math.min(room - 1, spare))).map((l) => cut(l, size.width - 4)));
    wants = decisionRows(asked, details.length);
  } else if (u.prompt?.kind === 'question') {
    wants = questionRows(questionLines(u.prompt.question, now, size.width, room));
  } else if (u.prompt?.kind === 'closed') {
    closed = { title: wrapAtMost(u.prompt.title, size.width - 4, room), text: [...wrapAtMost(u.prompt.text, size.width - 4, Math.max(room, CLOSED_LINES)), 'Nothing was sent.'] };
    wants = FRAME_ROWS + closed.title.length + closed.text.length;
  }
  // A result shown in the footer takes the lines it needs there (up to four), taken from the pane: its next step always shows.
  const said = u.message && !u.busy && !u.filtering && !u.prompt && !snapshot.board_gone ? messageLines(u.message, size.width) : null;
  const rows = shareRows(size.height - (said ? said.length - 1 : 0), wants);
  const paneRows = rows.pane;

  const run = async (action: ConsoleAction) => {
    set({ prompt: null, busy: `${WORKING[action.type]}…`, message: null });
    const result = await source.act(action);
    // The keys that came with the one that started it were typed before its result: they are taken
    // on the screen it left (they move, they do not act), and the result shown after them.
    await keysTaken();
    set({ busy: null, message: result.ok ? { ok: true, text: result.message } : { ok: false, text: result.message, next: result.next_step } });
    done(result.ok);
  };

  // A decision on a document shows its first lines under its details once they are read, as the run's own prompt does.
  const decide = (prompt: Extract<Prompt, { kind: 'decision' }>) => {
    set({ prompt });
    const { preview } = prompt;
    if (!preview) return;
    void source.preview(preview.change_id, preview.document).then((read) => {
      const now = ui.current.prompt;
      if (read.ok && read.data.length > 0 && now?.kind === 'decision' && now.subject === prompt.subject && now.details === prompt.details) set({ prompt: { ...now, lines: read.data } });
    });
  };

  const open = async (file: string, tool: 'pager' | 'editor') => {
    set({ busy: `Opening ${file}…`, message: null });
    const result = await source.open(file, tool);
    set({ busy: null, message: result.ok ? null : { ok: false, text: result.message, next: result.next_step } });
    done(result.ok);
  };

  /** Whether the prompt open is at a line being typed (feedback, an answer of the person's own) rather than at its choices. */
  const typing = (p: Prompt) => (draft.current ? draft.current.typed !== null : p.kind === 'decision' ? p.start === 'feedback' : p.kind === 'question' && p.question.options.length === 0);

  const move = (delta: number | 'top' | 'bottom', length: number, current: number) => {
    if (length === 0) return 0;
    if (delta === 'top') return 0;
    if (delta === 'bottom') return length - 1;
    return clamp(clamp(current, length) + delta, length);
  };

  const onKey = (input: string, key: Key) => {
    const u = ui.current;
    const v = viewsRef.current;
    if (key.ctrl) return;
    const closePrompt = (p: Prompt) => set({ prompt: null, ...(p.kind === 'closed' ? { message: { ok: false, text: p.text } } : {}) });
    // With the board's folder gone, there is nothing to move to or act on: q quits and Esc closes a
    // prompt open (it is opened again once the folder is back); the other keys wait for it to be back.
    if (snapshotRef.current.board_gone) {
      if (input === 'q') return leave();
      if (key.escape && u.prompt) closePrompt(u.prompt);
      return;
    }
    if (u.prompt?.kind === 'closed') {
      if (key.escape || key.return) closePrompt(u.prompt);
      return;
    }
    // A paste is text for a line being typed (the filter, feedback, an answer); anywhere else it is
    // no key at all: the letters of a text are not the person's choices.
    if (isPaste(key) && !(u.filtering || (u.prompt && typing(u.prompt)))) return;
    // The confirmation is one line in the footer: y does it, anything else does not.
    if (u.prompt?.kind === 'confirm') {
      const action = u.prompt.action;
      return input === 'y' ? void run(action) : set({ prompt: null });
    }
    // A decision or a question takes the keys: the console hands them to it. The footer says which
    // keys it takes, and they change when a line to type opens or closes.
    if (u.prompt) {
      const was = typing(u.prompt);
      promptKeys.current?.(input, key);
      if (ui.current.prompt === u.prompt && typing(u.prompt) !== was) rerender((n) => n + 1);
      return;
    }
    const page = Math.max(1, shown.current);
    const step = key.upArrow || input === 'k' ? -1 : key.downArrow || input === 'j' ? 1 : key.pageUp ? -page : key.pageDown ? page : input === 'g' || key.home ? 'top' : input === 'G' || key.end ? 'bottom' : null;
    // The keys that move scroll the help (a small terminal shows a part of it); any other key closes it.
    if (u.overlay?.kind === 'help' && step === null) return set({ overlay: null, scroll: 0 });
    if (u.filtering) {
      if (key.escape) set({ filtering: false, filter: '' });
      else if (key.return) set({ filtering: false });
      else if (key.backspace || key.delete) set({ filter: dropLast(u.filter) });
      else if (input && !key.ctrl && !key.meta) set({ filter: u.filter + input, rows: COLUMNS.map(() => 0), agent: 0, waiting: 0, change: 0 });
      return;
    }
    if (u.message && !key.escape) set({ message: null });
    if (input === 'q' || key.escape) {
      if (u.overlay) return set({ overlay: null, scroll: 0 });
      if (key.escape) return set({ filter: '', message: null });
      return leave();
    }
    if (input === '?') return set({ overlay: { kind: 'help' }, scroll: 0 });
    if (input === '/') return set({ filtering: true, overlay: null });
    const paneAt = PANES.indexOf(u.pane);
    if (key.tab) return set({ pane: PANES[(paneAt + (key.shift ? PANES.length - 1 : 1)) % PANES.length]!, overlay: null, scroll: 0 });
    if (/^[1-4]$/.test(input)) return set({ pane: PANES[Number(input) - 1]!, overlay: null, scroll: 0 });

    // A detail shown scrolls: one opened, or the Change pane of a console that follows one change.
    if (u.overlay || (u.pane === 'changes' && single && snapshot.changes.length > 0)) {
      if (step !== null) {
        const scroll = step === 'top' ? 0 : step === 'bottom' ? bottom.current : Math.max(0, Math.min(bottom.current, u.scroll + step));
        return set({ scroll });
      }
    } else if (u.pane === 'board' && (key.leftArrow || input === 'h' || key.rightArrow || input === 'l')) {
      return set({ col: clamp(u.col + (key.leftArrow || input === 'h' ? -1 : 1), COLUMNS.length) });
    } else if (step !== null) {
      switch (u.pane) {
        case 'board': {
          const rows = [...u.rows];
          rows[u.col] = move(step, v.columns[u.col]!.length, rows[u.col]!);
          return set({ rows });
        }
        case 'agents':
          return set({ agent: move(step, v.agents.length, u.agent) });
        case 'waiting':
          return set({ waiting: move(step, v.waiting.length, u.waiting) });
        case 'changes':
          return set({ change: move(step, v.changes.length, u.change) });
      }
    }

    // While an act runs, the keys that move and look are taken, not those that act on the selection:
    // a key pressed twice would act again, on what the first act left under the cursor.
    if (u.busy) return;
    const target = selectedTarget(source.get(), v, u);
    const decision = decisionOf(target);
    const question = questionOf(target);
    const claim = claimOf(target);
    const file = fileOf(target, source.get());
    if (input === 'a' && decision) {
      const [chosen, is] = [slid.current?.from, seenOf(target)];
      if (slid.current && chosen?.item !== is?.item) return set({ message: { ok: false, text: `Not approved: the cursor came to ${decision.subject} by itself.`, next: 'Enter decides on it; j and k choose another.' } });
      if (slid.current && chosen?.version !== is?.version) return set({ message: { ok: false, text: `Not approved: ${decision.subject} changed since you chose it.`, next: 'Enter shows it again to decide on.' } });
      return void run(decision.approve);
    }
    if (input === 'r' && decision) return decide({ kind: 'decision', start: 'feedback', ...decision });
    if (input === 'x' && claim) return set({ prompt: { kind: 'confirm', text: `Release ${claim.task_id} from ${claim.assignee}? It goes back to the pool.`, action: { type: 'release_task', task_id: claim.task_id }, gone: (s) => claimGone(s, claim) } });
    if ((input === 'o' || input === 'e') && file) return void open(file, input === 'o' ? 'pager' : 'editor');
    if (key.return) {
      if (question) return set({ prompt: { kind: 'question', question, unchosen: slid.current !== null } });
      if (decision) return decide({ kind: 'decision', start: 'choice', ...decision });
      if (u.overlay) return;
      const task = taskOf(target);
      if (task) return set({ overlay: { kind: 'task', task_id: task }, scroll: 0 });
      const change = changeOf(target);
      if (change) return set({ overlay: { kind: 'change', change_id: change }, scroll: 0 });
    }
  };

  // Ctrl-C quits from anywhere, prompts included; Ctrl-Z hands the terminal back to the shell until `fg`.
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') quit();
      else if (key.ctrl && input === 'z') onSuspend?.();
      else if (small && input === 'q') leave();
    },
    { isActive: !lent },
  );

  // A question that runs out of time (or is answered from elsewhere), or a document or task decided elsewhere, while the person is at its prompt no longer waits: the prompt closes, saying why.
  // A board whose folder is gone says nothing of what was decided or answered: the prompt waits for it to be back.
  useEffect(() => {
    if (snapshot.board_gone) return;
    const p = ui.current.prompt;
    // Of a confirmation: a claim done, released or taken by another agent meanwhile (y would release what the person was not asked about).
    if (p?.kind === 'decision' || p?.kind === 'confirm') {
      const text = p.gone(snapshot);
      if (text) set({ prompt: { kind: 'closed', title: p.kind === 'decision' ? `Your decision: ${p.subject}` : p.text, text } });
    }
    if (p?.kind !== 'question' || snapshot.waiting.some((w) => w.kind === 'question' && w.input_id === p.question.input_id)) return;
    const { input_id, agent_id, question, default_action, expires_at } = p.question;
    const text = Date.parse(expires_at) <= now ? `${input_id} ran out of time: ${agent_id} goes on with its default action: ${default_action}` : `${input_id} was answered from elsewhere.`;
    set({ prompt: { kind: 'closed', title: `${agent_id} asked: ${question}`, text } });
  }, [snapshot]);

  // After the effect above: a key waiting finds a prompt the board closed already closed. A terminal
  // too small to show the panes takes no key but q: nothing is done that the person cannot see.
  const keysTaken = useKeys((input, key) => {
    if (quitting.current) return false;
    const before = ui.current;
    onKey(input, key);
    // A key is the person's choice of what is under the cursor, except one typed while an act ran:
    // it was typed before the item that came under the cursor meanwhile was on the screen.
    if (input !== 'a' && !before.busy) slid.current = null;
    // A key that changed nothing of the screen's own, or only the filter being typed (a letter typed
    // into a line: the keys after it act on that line too, until Enter or Esc), needs no drawing first.
    return ui.current !== before && !(before.filtering && ui.current.filtering);
  }, !lent && !small);

  // While a pager or an editor has the terminal, nothing is drawn over it.
  if (lent) return <Text dimColor>{u.busy}</Text>;
  if (small) {
    // q pressed there while an act runs: what the console waits for before it goes, in place of how big it must be.
    const text = u.leaving && size.width > 0 && size.height > 1 ? wrapAtMost(`${u.busy} then quitting; Ctrl-C quits now.`, size.width, size.height - 1) : small;
    // As wide as its longest line: on a terminal that gives no width, the layout has none to give it.
    return (
      <Box flexDirection="column" width={Math.max(0, ...text.map((l) => l.length))} flexShrink={0}>
        {text.map((l, i) => (
          <Text key={i} color="yellow">
            {l}
          </Text>
        ))}
      </Box>
    );
  }

  const target = selectedTarget(snapshot, views, u);
  const totals = snapshot.changes.reduce((a, c) => ({ done: a.done + c.tasks.done, total: a.total + c.tasks.total }), { done: 0, total: 0 });
  // An agent of a run works while one of its invocations runs (between them it is idle, whatever it last reported); any
  // other while it holds a task in progress: a session's "working" is what the agent last said, kept after it went away.
  const working = snapshot.agents.filter((a) => (a.run ? a.run.invocation > 0 : a.task?.status === 'in_progress')).length;
  const problems = snapshot.problems.length;

  const help = u.overlay?.kind === 'help' ? helpLines(source.person, size.width) : null;
  let body;
  if (snapshot.board_gone) body = <Text color="red">{`The board's folder is gone: ${snapshot.board_gone} was moved or deleted. The board shows again once the folder is back.`}</Text>;
  else if (help) body = <ScrollLines lines={help} rows={paneRows} scroll={u.scroll} bottom={bottom} shown={shown} />;
  else if (u.overlay?.kind === 'task') body = <TaskDetail taskId={u.overlay.task_id} source={source} version={snapshot} now={now} width={size.width} rows={paneRows} scroll={u.scroll} bottom={bottom} shown={shown} />;
  else if (u.overlay?.kind === 'change') {
    const id = u.overlay.change_id;
    const change = snapshot.changes.find((c) => c.change_id === id);
    body = change ? <ChangeDetail change={change} source={source} now={now} width={size.width} rows={paneRows} scroll={u.scroll} bottom={bottom} shown={shown} /> : <Text dimColor>{id} is no longer an open change.</Text>;
  } else if (u.pane === 'board') {
    body = <BoardPane views={views} focus={u.col} cursors={u.rows} wide={!single && snapshot.changes.length > 1} now={now} width={size.width} rows={paneRows} shown={shown} />;
  } else if (u.pane === 'agents') body = <AgentsPane agents={views.agents} cursor={clamp(u.agent, views.agents.length)} now={now} width={size.width} rows={paneRows} active shown={shown} filter={views.filter} />;
  else if (u.pane === 'waiting') body = <WaitingPane items={views.waiting} cursor={clamp(u.waiting, views.waiting.length)} now={now} width={size.width} rows={paneRows} active shown={shown} filter={views.filter} />;
  else if (single && snapshot.changes[0]) body = <ChangeDetail change={snapshot.changes[0]} source={source} now={now} width={size.width} rows={paneRows} scroll={u.scroll} bottom={bottom} shown={shown} />;
  // The change followed was archived or removed: the board has changes still, this console follows none.
  else if (single) body = <Text dimColor>{snapshot.scope} is no longer an open change.</Text>;
  else body = <ChangesPane changes={views.changes} archived={snapshot.archived} spell={source.spell} cursor={clamp(u.change, views.changes.length)} width={size.width} rows={paneRows} active shown={shown} filter={views.filter} />;

  const footer = () => {
    if (snapshot.board_gone && !u.busy) return keyLine(u.prompt ? [['Esc', 'back'], ['q', 'quit']] : [['q', 'quit']]);
    if (u.filtering) {
      // Where the person types is what shows: the end of a filter longer than the line, then what the keys do, as far as it fits.
      return (
        <Text wrap="truncate">
          <Text color="cyan">/</Text>
          {typedTail(u.filter, size.width - 3)}
          <Text inverse> </Text>
          <Text dimColor> Enter keeps the filter · Esc clears it</Text>
        </Text>
      );
    }
    if (u.busy) {
      return (
        <Text wrap="truncate" color="cyan">
          {u.busy}
          {u.leaving ? <Text dimColor> then quitting · Ctrl-C quits now</Text> : null}
        </Text>
      );
    }
    // A prompt that closed by itself takes no key of the board's: the footer says what it takes.
    if (u.prompt?.kind === 'closed') {
      return (
        <Text wrap="truncate" dimColor>
          <Text bold>Esc</Text> or <Text bold>Enter</Text> back
        </Text>
      );
    }
    if (u.prompt?.kind === 'confirm') {
      // The question gives way to its keys on a narrow terminal: y and n are always in view.
      return (
        <Text wrap="truncate">
          <Text color="yellow">{cut(u.prompt.text, size.width - ' y yes · n no'.length)}</Text> <Text bold>y</Text> yes · <Text bold>n</Text> no
        </Text>
      );
    }
    // A decision or a question takes every key: the footer lists those it takes, not the board's.
    if (u.prompt) return keyLine(typing(u.prompt) ? TYPING_HINTS : u.prompt.kind === 'decision' ? DECISION_HINTS : questionHints(u.prompt.question.options.length));
    if (said) {
      return (
        <Box flexDirection="column">
          {said.map((l, i) => (
            <Text key={i} wrap="truncate" color={u.message!.ok ? 'green' : 'red'}>
              {l.text}
              {l.next ? <Text dimColor>{l.text ? ' ' : ''}{l.next}</Text> : null}
            </Text>
          ))}
        </Box>
      );
    }
    // The board could not be read: what is on screen is the last read that could.
    if (snapshot.trouble) return <Text wrap="truncate" color="red">⚠ {snapshot.trouble}</Text>;
    return keyLine(help ? helpHints(help.length > paneRows) : hints(target, snapshot, u.overlay !== null));
  };
  const keyLine = (all: [string, string][]) => (
    <Text wrap="truncate" dimColor>
      {fitHints(all, size.width).map(([k, what], i) => (
        <Text key={`${k}${what}`}>
          {i > 0 ? ' · ' : ''}
          <Text bold>{k}</Text> {what}
        </Text>
      ))}
    </Text>
  );

  const scopeText = single ? (snapshot.scope_gone ? `${snapshot.scope} (no longer open)` : snapshot.scope!) : 'all changes';
  return (
    <Box flexDirection="column" width={size.width} height={size.height - 1} overflow="hidden">
      {rows.chrome && (
        <>
          <Header snapshot={snapshot} scope={scopeText} done={totals.done} total={totals.total} working={working} person={source.person} width={size.width} />
          <TabBar pane={u.overlay?.kind === 'help' ? null : u.pane} single={single} waiting={snapshot.waiting.length} filter={u.filtering ? '' : u.filter} trouble={problems ? `${problems} unreadable (${source.spell(refTo('change.validate'))})` : null} width={size.width} plain={plain} />
        </>
      )}
      {paneRows > 0 && (
        <Box height={paneRows} flexDirection="column" overflow="hidden" marginTop={0} flexShrink={0}>
          {/* A pane with fewer rows than its lines shows their start: pressed into the rows, they would be drawn over each other. */}
          <Box flexDirection="column" flexShrink={0}>
            {body}
          </Box>
        </Box>
      )}
      {u.prompt?.kind === 'decision' && (
        <DecisionPrompt
          key={`${u.prompt.subject}${u.prompt.start}`}
          question={{ subject: u.prompt.subject, details }}
          start={u.prompt.start}
          keys={promptKeys}
          draft={draft}
          later={LATER}
          escapeLater
          width={size.width}
          room={room}
          rows={rows.prompt}
          onAnswer={(answer) => {
            const p = ui.current.prompt;
            if (p?.kind !== 'decision') return;
            if (answer.decision === 'approve') void run(p.approve);
            else if (answer.decision === 'reject') void run(p.reject(answer.feedback));
            else set({ prompt: null });
          }}
        />
      )}
      {u.prompt?.kind === 'question' && (
        <QuestionPrompt
          key={u.prompt.question.input_id}
          question={u.prompt.question}
          unchosen={u.prompt.unchosen}
          now={now}
          width={size.width}
          room={room}
          rows={rows.prompt}
          keys={promptKeys}
          draft={draft}
          onAnswer={(answer) => {
            const p = ui.current.prompt;
            if (p?.kind === 'question') void run({ type: 'answer', input_id: p.question.input_id, answer });
          }}
          onCancel={() => ui.current.prompt?.kind === 'question' && set({ prompt: null })}
        />
      )}
      {closed && (
        <PromptBox
          head={closed.title.map((l, i) => (
            <Text key={i} bold wrap="truncate">
              {l}
            </Text>
          ))}
          rest={closed.text.map((l, i) => (
            <Text key={i} wrap="truncate" color={i < closed.text.length - 1 ? 'red' : undefined} dimColor={i === closed.text.length - 1}>
              {l}
            </Text>
          ))}
          focus={[0, closed.text.length - 1]}
          foot={[]}
          rows={rows.prompt}
          color="red"
        />
      )}
      <Box height={said ? said.length : 1}>{footer()}</Box>
    </Box>
  );
}
