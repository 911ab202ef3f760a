/** People's keys (domain/people.ts): a person makes one at a terminal for their scripts and CI. */
import * as z from 'zod';
import { newPersonKey, personKeyHash } from '../domain/people.js';
import { withPerson } from '../store/people.js';
import { defineOp, requireHuman } from './registry.js';
import { Actor } from './schemas.js';

export const makePersonKey = defineOp({
  name: 'person.key',
  summary: "Make a person's key for scripts and CI, shown once (at a terminal; people only)",
  access: 'human',
  input: z.strictObject({ agent_id: Actor }),
  output: z.object({
    name: z.string(),
    person_key: z.string().describe('Shown once; agentd/people.yaml keeps only its SHA-256.'),
    file: z.string(),
    replaced: z.boolean().describe("True when this person's earlier key was replaced (it stops working)."),
  }),
  cli: { command: 'person key' },
  run(ctx, input) {
    requireHuman(input.agent_id, "Making a person's key");
    const board = ctx.board();
    return board.mutate((tx) => {
      const people = board.readPeople();
      const replaced = people.some((p) => p.name === input.agent_id);
      const key = newPersonKey();
      const person = { name: input.agent_id, key_sha256: personKeyHash(key), added: tx.now };
      tx.putBoardFile('people.yaml', (text) => withPerson(text, person));
      tx.log(input.agent_id, 'person.key', input.agent_id, `${replaced ? 'replaced the key of' : 'added'} ${input.agent_id} in agentd/people.yaml`);
      return { name: input.agent_id, person_key: key, file: 'agentd/people.yaml', replaced };
    });
  },
});

export const PEOPLE_OPS = [makePersonKey];
