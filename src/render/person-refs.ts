/**
 * References to operations (domain/refs.ts) spelled for the person at a terminal: the commands to
 * type, with the real ids. What agentboard says to a person outside a command's own output (a
 * run's events and last words, the console) goes through it.
 */
import { cliSpeller } from '../cli/refs.js';
import { resolveRefsDeep } from '../domain/refs.js';
import { spelledOf } from '../ops/catalog.js';
import { OPERATIONS } from '../ops/index.js';

const speller = cliSpeller(OPERATIONS.map(spelledOf));

/** The value with every reference in its strings spelled as the command a person types. */
export function forPerson<T>(value: T): T {
  return resolveRefsDeep(value, speller);
}
