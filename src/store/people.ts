/** agentd/people.yaml: the people who may act from scripts and CI, each with the SHA-256 of their key. */
import * as z from 'zod';
import type { YAMLMap } from 'yaml';
import { fail } from '../errors.js';
import { humanActorProblem } from '../domain/ids.js';
import type { PersonRecord } from '../domain/people.js';
import { emitYaml, lineOfPath, parseYaml, yaml, YamlError, type FlatMap } from './yaml-lite.js';
import { once } from '../once.js';
import { withLf } from './markdown.js';
import { inWords, valueAt } from './config.js';

export const PEOPLE_FILE = 'people.yaml';

const peopleSchema = once(() =>
  z.object({
    people: z
      .array(
        z.object({
          name: z.string().refine((n) => humanActorProblem(n) === null, 'must be human:<name>'),
          key_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
          added: z.string(),
        }),
      )
      .nullable()
      .default([]),
  }),
);

const HEADER = `# The people who may act on this board from scripts and CI with a person's key
# (AGENTBOARD_PERSON_KEY). Only the SHA-256 of each key is kept. A person adds themselves with
# \`agentboard person key\` at a terminal; adding a person is a change reviewed in git like any other.
`;

export function parsePeople(text: string, shown: string): PersonRecord[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    if (err instanceof YamlError) fail('CONFIG_INVALID', `${shown}:${err.line}: ${err.message}.`, `Fix the YAML of ${shown}.`);
    throw err;
  }
  const parsed = peopleSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const line = lineOfPath(text, issue.path);
    fail('CONFIG_INVALID', `${shown}${line ? `:${line}` : ''}: "${issue.path.join('.')}": ${inWords(issue, valueAt(raw, issue.path))}.`, `Fix ${shown}, or remove the broken entry and run \`agentboard person key\` again.`);
  }
  return parsed.data.people ?? [];
}

export function renderPeople(people: PersonRecord[]): string {
  return `${HEADER}${emitYaml({ people: people.map((p) => ({ name: p.name, key_sha256: p.key_sha256, added: p.added }) as FlatMap) })}`;
}

/**
 * people.yaml's text (`text`, as read and parsed already; null: no file) with `person`'s entry
 * added, or its key replaced where the person has one: an edit of the file, so that the comments
 * and the fields people wrote in it stay.
 */
export function withPerson(text: string | null, person: PersonRecord): string {
  if (text === null || text.trim() === '') return renderPeople([person]);
  const { isMap, isSeq, parseDocument } = yaml();
  const doc = parseDocument(withLf(text));
  const entry = { name: person.name, key_sha256: person.key_sha256, added: person.added };
  const list = doc.get('people', true);
  if (!isSeq(list)) {
    doc.set('people', doc.createNode([entry]));
    return doc.toString({ lineWidth: 0 });
  }
  const theirs = list.items.filter((item) => isMap(item) && item.get('name') === person.name) as YAMLMap[];
  if (theirs.length === 0) {
    // A list written in flow style ([]) takes its first entry as a block, as agentboard writes entries.
    if (list.items.length === 0) list.flow = false;
    list.add(doc.createNode(entry));
  } else {
    theirs[0]!.set('key_sha256', person.key_sha256);
    theirs[0]!.set('added', person.added);
    list.items = list.items.filter((item) => !theirs.slice(1).includes(item as YAMLMap));
  }
  return doc.toString({ lineWidth: 0 });
}
