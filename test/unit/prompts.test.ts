/**
 * A phase's prompt from the project's own template (agentd/prompts/<phase>.md): a person's answers
 * reach the agent even when the template was written before it had a place for them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPrompt } from '../../src/engine/prompts.js';
import { tempDir } from '../helpers.js';

const ANSWERS = '- planner-1 asked (input-1): Which database?\n  answered by human:ana: Postgres';

function boardWithPrompt(text: string): string {
  const dir = join(tempDir('agentboard-prompts-'), 'agentd');
  mkdirSync(join(dir, 'prompts'), { recursive: true });
  writeFileSync(join(dir, 'prompts', 'spec.md'), text);
  return dir;
}

describe("a project's own prompt template", () => {
  it('without {{answers}} gets the answers added at its end', () => {
    const dir = boardWithPrompt('Our house style. Write the spec of {{change_id}}.\n');
    expect(renderPrompt(dir, 'spec', { change_id: 'add-search', answers: ANSWERS })).toBe(
      `Our house style. Write the spec of add-search.\n\n## Questions asked, and a person's answers (follow them)\n\n${ANSWERS}\n`,
    );
  });

  it('without {{answers}} and no answers stays as written', () => {
    const dir = boardWithPrompt('Our house style. Write the spec of {{change_id}}.\n');
    expect(renderPrompt(dir, 'spec', { change_id: 'add-search', answers: '' })).toBe('Our house style. Write the spec of add-search.\n');
  });

  it('with its own place for the answers gets them there, once', () => {
    const dir = boardWithPrompt('Spec of {{change_id}}.\n{{#answers}}\nAnswers:\n{{answers}}\n{{/answers}}\nEnd.\n');
    const text = renderPrompt(dir, 'spec', { change_id: 'add-search', answers: ANSWERS });
    expect(text).toBe(`Spec of add-search.\nAnswers:\n${ANSWERS}\nEnd.\n`);
  });
});
