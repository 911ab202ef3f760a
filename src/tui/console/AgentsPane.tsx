/**
 * One row per agent: its workflow state as a badge (seed 002), the task it holds, its last word
 * and how long ago; an agent of a running `agentboard run` also shows its seat and invocation,
 * and in the run's own view the tokens it used. The console and `agentboard run` both draw it.
 */
import { Box, Text } from 'ink';
import type { AgentCard } from '../../console/cards.js';
import { SESSION_COLOR } from '../../render/colors.js';
import { ago, cut, localId, noMatch, padTo, textWidth, words } from './format.js';
import { useViewStart } from './list-view.js';

const BADGE: Record<string, string> = { started: '○', working: '●', awaiting_input: '?', blocked: '■', awaiting_review: '◇', completed: '✓' };

function runLine(a: AgentCard, now: number): string {
  const r = a.run!;
  const what = r.invocation > 0 ? `invocation ${r.invocation}, ${r.task_id ? localId(r.task_id) : r.phase}, ${ago(r.started_at, now)}` : 'between invocations';
  return `run ${r.run_id} · ${r.role} · ${what}`;
}

/** The second line of an agent: its seat in a run and the tokens it used there, when there are any. */
function secondLine(a: AgentCard, now: number, tokens: ReadonlyMap<string, number> | undefined): string {
  const used = tokens?.get(a.agent_id) ?? 0;
  return [a.run ? runLine(a, now) : '', used > 0 ? `${used.toLocaleString('en-US')} tok` : ''].filter(Boolean).join(' · ');
}

const LAST_WORD = 'LAST WORD';

/** `shown` learns how many agents the view holds (a page, for PgUp and PgDn). */
export function AgentsPane(props: { agents: AgentCard[]; cursor: number; now: number; width: number; rows: number; active: boolean; tokens?: ReadonlyMap<string, number>; shown?: { current: number }; filter?: string }) {
  const { agents, cursor, now, width, rows, active, tokens } = props;
  // Agents in a run take two lines; the view holds as many as fit under the heading.
  const lineCount = (a: AgentCard) => (secondLine(a, now, tokens) ? 2 : 1);
  const fits = (from: number) => {
    let used = 0;
    let i = from;
    while (i < agents.length && used + lineCount(agents[i]!) <= rows - 1) used += lineCount(agents[i++]!);
    return Math.max(1, i - from);
  };
  const start = useViewStart(cursor, agents.length, fits);
  if (agents.length === 0 && props.filter) return <Text dimColor>{noMatch(props.filter)}</Text>;
  if (agents.length === 0) return <Text dimColor>No agents yet: an agent appears here when it registers, reports its status or claims a task.</Text>;
  const shown = agents.slice(start, start + fits(start));
  if (props.shown) props.shown.current = shown.length;
  const position = shown.length < agents.length ? `${start + 1}-${start + shown.length}/${agents.length}` : '';
  // The columns share what the width gives, each heading whole: the last word takes what is left,
  // the last column says how long ago, or where the view is in a list longer than it.
  const badgeW = width < 70 ? 14 : 18;
  const idW = Math.max(10, Math.min(18, Math.floor(width * 0.2)));
  const agoW = Math.max(5, position.length);
  const taskW = Math.max('TASK'.length + 1, Math.min(30, Math.floor(width * 0.26), width - badgeW - idW - agoW - LAST_WORD.length - 1));
  const msgW = Math.max(LAST_WORD.length + 1, width - badgeW - idW - taskW - agoW);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {'  '}
        {'STATE'.padEnd(badgeW - 2)}
        {'AGENT'.padEnd(idW)}
        {'TASK'.padEnd(taskW)}
        {LAST_WORD.padEnd(msgW)}
        {position || 'AGO'}
      </Text>
      {shown.map((a, k) => {
        const selected = active && start + k === cursor;
        const status = a.status ?? 'unknown';
        const task = a.task ? `${localId(a.task.task_id)} ${a.task.title}` : a.in_review ? `${a.in_review} in review` : '-';
        return (
          <Box key={a.agent_id} flexDirection="column">
            <Text wrap="truncate">
              <Text color="cyan">{selected ? '› ' : '  '}</Text>
              <Text color={SESSION_COLOR[status]} bold={a.status === 'working'}>
                {padTo(cut(`${BADGE[status] ?? '·'} ${a.status ? words(a.status) : 'no status'}`, badgeW - 3), badgeW - 2)}
              </Text>
              <Text bold={selected} inverse={selected}>
                {cut(a.agent_id, idW - 1)}
              </Text>
              {' '.repeat(Math.max(1, idW - textWidth(cut(a.agent_id, idW - 1))))}
              <Text>{padTo(cut(task, taskW - 1), taskW)}</Text>
              <Text dimColor={!a.message}>{padTo(cut(a.message ?? '', msgW - 1), msgW)}</Text>
              <Text dimColor>{ago(a.message_at, now)}</Text>
            </Text>
            {lineCount(a) === 2 && (
              <Text dimColor wrap="truncate">
                {'    '}
                {secondLine(a, now, tokens)}
              </Text>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
