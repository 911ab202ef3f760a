/** The run's own records (store/runs.ts has the layout): kept up to date as the run goes. */
import { nowIso } from '../clock.js';
import { addUsage, appendJsonLine, createRunDir, emptyUsage, writeJson, type InvocationRecord, type RunOutcome, type RunRecord, type Usage } from '../store/runs.js';
import { join } from 'node:path';
import { selfIdentity } from '../store/lock.js';
import { randomBytes } from 'node:crypto';

/** 20261122-073012345-3f2a: sorts by start time (UTC, to the millisecond), unique enough for one board. */
export function newRunId(now = new Date()): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 23).replace(/[:.]/g, '')}-${randomBytes(2).toString('hex')}`;
}

export class RunRecorder {
  readonly dir: string;
  readonly run: RunRecord;

  constructor(runtimeDir: string, init: Omit<RunRecord, 'pid' | 'host' | 'boot' | 'pidns' | 'start' | 'started_at' | 'ended_at' | 'outcome' | 'message' | 'claims' | 'invocations' | 'usage'>) {
    this.dir = createRunDir(runtimeDir, init.run_id);
    this.run = { ...init, ...selfIdentity(), started_at: nowIso(), ended_at: null, outcome: null, message: null, claims: [], invocations: 0, usage: emptyUsage() };
    this.save();
  }

  save(): void {
    writeJson(join(this.dir, 'run.json'), this.run);
  }

  event(event: object): void {
    appendJsonLine(join(this.dir, 'events.jsonl'), event);
  }

  nextInvocation(): number {
    this.run.invocations++;
    this.save();
    return this.run.invocations;
  }

  saveInvocation(path: string, record: InvocationRecord): void {
    writeJson(path, record);
  }

  addUsage(usage: Usage): void {
    this.run.usage = addUsage(this.run.usage, usage);
    this.save();
  }

  reached(phase: string): void {
    if (this.run.phase === phase) return;
    this.run.phase = phase;
    this.save();
  }

  claim(taskId: string): void {
    if (this.run.claims.includes(taskId)) return;
    this.run.claims.push(taskId);
    this.save();
  }

  unclaim(taskId: string): void {
    if (!this.run.claims.includes(taskId)) return;
    this.run.claims = this.run.claims.filter((c) => c !== taskId);
    this.save();
  }

  finish(outcome: RunOutcome, message: string): void {
    this.run.outcome = outcome;
    this.run.message = message;
    this.run.ended_at = nowIso();
    this.save();
  }
}
