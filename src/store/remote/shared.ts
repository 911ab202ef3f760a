/**
 * A shared board: many clones, one board, ordered by the git remote (docs/shared-boards.md).
 *
 * Every write runs, inside the board lock: settle an interrupted push; fetch
 * refs/agentboard/board; bring agentd/ to it (store/remote/reconcile.ts); run the operation's
 * transaction; commit what it changed on top of the fetched commit (store/remote/tree.ts); push
 * naming the fetched value as the only one it may replace (--force-with-lease, a compare-and-swap
 * the remote performs atomically); and only once the remote took it, apply it locally through the
 * commit journal. A rejected push means another clone wrote first: fetch, bring agentd/ to the new
 * state, run the operation again on it under the same rules, push again, for REMOTE_PATIENCE_MS at
 * most (a clone that keeps losing says so, and the others give way). Nothing local changes before
 * the remote has the write, so a kill -9 at any moment leaves this clone at some commit of the
 * board: the next command fetches and shows whichever commit the remote holds, and says whether
 * the interrupted write landed.
 *
 * Offline, a write fails with REMOTE_UNREACHABLE, except notes and progress: they are checked
 * against the local copy and queued, and replayed in order on the next sync, each only while the
 * claim it was made under still holds (a refused one is kept and reported, never dropped).
 */
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { faultPoint, now, sleepSync } from '../../clock.js';
import { AgentboardError, fail } from '../../errors.js';
import type { Board } from '../board.js';
import { filesUnder, identityOf, newToken, readBoardFile, tempPath, writeFileAtomic, writeNewFile } from '../fs.js';
import type { Journal } from '../journal.js';
import type { BoardLock } from '../lock.js';
import { processesWith } from '../processes.js';
import { PublishedThenChanged, Transaction, type Publish } from '../transaction.js';
import { blobId, gitReason, Git, remoteSaid, shownUrl, type GitResult } from './git.js';
import { writeIntent, type WriteIntent } from './intent.js';
import { mergeFork } from './fork.js';
import { readRange, Reconciler, targetOf } from './reconcile.js';
import { RemoteFiles, type Aside, type Pending, type Synced } from './state.js';
import { activitySize, activityTarget, BOARD_REF, cutActivity, readBlobs, sharedBytes, STATE_PATH, treePathOf, writeCommit, type Listing } from './tree.js';
import { refTo, SAME_CALL } from '../../domain/refs.js';
import { parseTaskRef } from '../../domain/ids.js';

/** Where a clone that keeps losing the race says so, one ref per clone (see giveWay). */
const WAITING_REFS = 'refs/agentboard/waiting/';
/** Pushes turned down in a row while the remote's board did not move, after which a write says so (again). */
const UNMOVED_MAX = 3;
/** A write that kept losing the race for this long gives up (REMOTE_BUSY). */
const REMOTE_PATIENCE_MS = 120_000;
/** Rejections in a row after which a write says it is waiting. */
const WAIT_AFTER = 2;
/** How long a write gives way to clones that wait, at most. */
const YIELD_MS = 5_000;
/** A waiting ref that has not moved for this long belongs to a clone that stopped trying. */
const WAITING_STALE_MS = 10_000;
/** A write stamped later than this clone's clock by more than this says that the machines' clocks differ (checkClock). */
const CLOCK_SLACK_MS = 60_000;
/** How long a command waits for a push or a git command that outlived the command that started it. */
const ORPHAN_WAIT_MS = 30_000;
const PUSH_MARKER = 'AGENTBOARD_PUSH';
/** Set in the environment of a git command run with the board's copies out of its way (runAside). */
const ASIDE_MARKER = 'AGENTBOARD_GIT_ASIDE';

/** The remote's board moved since it was fetched: fetch, and run the operation again. */
class RemoteMoved extends Error {}

/** Errors that say nothing about the write itself: the queue waits and tries again later. */
export const TRANSIENT = new Set(['REMOTE_UNREACHABLE', 'REMOTE_NO_BOARD', 'REMOTE_BUSY', 'REMOTE_REFUSED', 'BOARD_BUSY', 'BOARD_CHANGED', 'DISK_FULL', 'IO_ERROR', 'PERMISSION_DENIED', 'READ_ONLY', 'INTERNAL']);

/**
 * Puts a file of the board into a commit being made: its bytes as the board ref holds them
 * (sharedBytes) as a blob in `data`, its entry in `listing`, and the identity of the local file it
 * was read from in `identities`.
 */
function storeIn(listing: Listing, identities: Record<string, string>, data: Map<string, Buffer>, idLength: number) {
  return (path: string, local: Buffer, identity?: string): void => {
    const bytes = sharedBytes(path, local);
    const blob = blobId(bytes, idLength);
    data.set(blob, bytes);
    listing[path] = { blob, size: bytes.length };
    if (identity) identities[path] = identity;
  };
}

/** Whether two listings of the shared tree name the same files with the same contents. */
function sameListing(a: Listing, b: Listing): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] !== undefined && b[k]!.blob === a[k]!.blob);
}

/** Who holds a task (`<change_id>/<task_id>`) as the write has it; null when nobody or no such task. */
function holderIn(tx: Transaction, ref: string): string | null {
  const task = parseTaskRef(ref);
  if (typeof task === 'string') return null;
  return tx.readDoc(task.changeId, 'tasks')?.content?.blocks.find((b) => b.id === task.taskId)?.task?.assignee ?? null;
}

function isCode(err: unknown, code: string): boolean {
  return err instanceof AgentboardError && err.code === code;
}

/** A queued write another process replayed (or a person dropped) after this one read the queue: it is not applied again. */
export class ReplayedElsewhere extends Error {}

export class SharedBoard {
  readonly git: Git;
  readonly files: RemoteFiles;
  private readonly tracking: string;
  /** A push that failed for want of the remote: it may have landed; the next command tells. */
  private unsettled: Pending | null = null;
  /** When this process last said on the remote that its clone waits for its turn (ms), or null. */
  private waitingSaid: number | null = null;
  /** How long this process's last fetch took, and its last attempt at a write, from its fetch to its push's answer (ms). */
  private fetchMs = 50;
  private attemptMs = 150;
  /** The date of the board commit fetched last (ms since the epoch). */
  private headTime = 0;
  /** How many pushes in a row were turned down while the remote's board did not move (again), and the last one's reason. */
  private unmoved = 0;
  private lastTurnedDown: { line: string; said: string } | null = null;
  /** What the fetch before the last one found: the board commit and when, by this clone's clock (checkClock). */
  private previousFetch: { head: string; at: number } | null = null;

  constructor(
    readonly board: Board,
    readonly remote: string,
  ) {
    this.git = new Git(board.root);
    this.files = new RemoteFiles(board.runtimeDir, (p) => board.rel(p));
    this.tracking = `refs/agentboard/remotes/${remote}/board`;
    board.questionsSeen = () => this.files.seen().at;
  }

  // ---- talking to the remote ------------------------------------------------------------------------

  private unreachable(stderr: string): never {
    if (!this.git.inRepository()) {
      fail('NOT_A_GIT_REPOSITORY', `agentd/config.yaml shares this board through the git remote "${this.remote}", but the board is not in a git repository.`, `Run agentboard in a clone of the repository, or turn sharing off with ${refTo('remote.disable')}.`);
    }
    const url = this.git.remoteUrl(this.remote);
    if (url === null) {
      // Renamed, say (git remote rename): the name in agentd/config.yaml is every clone's.
      const names = this.git.run(['remote']).stdout.toString('utf8').split('\n').filter(Boolean);
      const has = names.length > 0 ? ` (it has ${names.map((n) => `"${n}"`).join(', ')})` : '';
      const rename = names.length > 0 ? `Give that name back to the remote the other clones share the board through (\`git remote rename ${names[0]} ${this.remote}\`, when it is "${names[0]}"), or add it` : 'Add it';
      fail('REMOTE_NOT_FOUND', `agentd/config.yaml shares this board through the git remote "${this.remote}", which this clone does not have${has}.`, `${rename} with \`git remote add ${this.remote}\` followed by the URL the other clones use, then try ${SAME_CALL} again.`);
    }
    const named = [`'${url}'`, `'${shownUrl(url)}'`, url, shownUrl(url)].reduce((text, u) => text.split(u).join(`"${this.remote}"`), stderr);
    const reason = gitReason(named);
    const waiting = this.files.queue().entries.filter((e) => !e.refused).length;
    const queued = waiting > 0 ? ` ${waiting} write${waiting === 1 ? ' made offline waits' : 's made offline wait'} to be pushed.` : '';
    fail(
      'REMOTE_UNREACHABLE',
      `The shared board's remote "${this.remote}" could not be reached (${reason}); a claim, a release or any other exclusive write must be agreed with the remote, so nothing was written.${queued}`,
      `Check the connection and your access with \`git fetch ${this.remote}\` (agentboard never waits for a passphrase or a password to be typed: load the key into ssh-agent, or use a credential helper), then try ${SAME_CALL} again. Notes and progress are queued meanwhile and pushed in order on the next sync (${refTo('remote.status')} shows them).`,
    );
  }

  /**
   * Fetches the board ref (and the refs of clones waiting for their turn): the commit the remote
   * holds, or null when it holds no board.
   */
  fetch(): string | null {
    const tracked = `refs/agentboard/remotes/${this.remote}/`;
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--prune', this.remote, `+${BOARD_REF}:${this.tracking}`, `+${WAITING_REFS}*:${tracked}waiting/*`];
    const t0 = Date.now();
    let r = this.git.run(args, { network: true });
    // A race, not a lost remote: another board of this repository (a worktree's) updating the same
    // tracking ref at this instant, or a ref the remote listed moving before it was asked for (a
    // clone taking its waiting ref back: "not our ref").
    for (let i = 0; i < 5 && r.code !== 0 && /cannot lock ref|not our ref/.test(r.stderr); i++) {
      sleepSync(20 + Math.random() * 50);
      r = this.git.run(args, { network: true });
    }
    this.fetchMs = Date.now() - t0;
    this.previousFetch = this.files.lastFetch();
    if (r.code !== 0) {
      if (!/couldn't find remote ref/i.test(r.stderr)) this.unreachable(r.stderr);
      this.files.touchFetched(null, now().getTime());
      return null;
    }
    let head: string | null = null;
    const waiting: Record<string, string> = {};
    for (const line of this.git.must(['for-each-ref', '--format=%(objectname) %(committerdate:unix) %(refname)', tracked]).split('\n')) {
      const [id, time, ref] = line.split(' ');
      if (ref === this.tracking) {
        head = id!;
        this.headTime = Number(time) * 1000;
      } else if (ref?.startsWith(`${tracked}waiting/`)) waiting[ref.slice(tracked.length + 'waiting/'.length)] = id!;
    }
    this.files.touchFetched(head, now().getTime());
    this.files.noteWaiting(waiting);
    return head;
  }

  private pushTarget: string | null = null;
  /**
   * Where the board's pushes go: the remote, unless it pushes to another repository than it fetches
   * from (remote.<name>.pushurl: fetching from the shared repository and pushing code to a fork, say).
   * The board is pushed where it is fetched from, or no push would ever meet the board it was made on.
   */
  private pushTo(): string {
    if (this.pushTarget === null) {
      const pushUrls = this.git.run(['config', '--get-all', `remote.${this.remote}.pushurl`]).stdout.toString('utf8').trim();
      this.pushTarget = pushUrls === '' ? this.remote : (this.git.remoteUrl(this.remote) ?? this.remote);
    }
    return this.pushTarget;
  }

  /** Pushes `commit` if the remote's board is still `expected`: 'ok', or 'moved' when another clone wrote first. */
  private push(commit: string, expected: string | null, token: string): 'ok' | 'moved' {
    const r = this.git.run(['push', '--porcelain', '--no-verify', `--force-with-lease=${BOARD_REF}:${expected ?? ''}`, this.pushTo(), `${commit}:${BOARD_REF}`], { network: true, env: { [PUSH_MARKER]: token } });
    const line = r.stdout
      .toString('utf8')
      .split('\n')
      .find((l) => l.includes(`:${BOARD_REF}\t`));
    if (r.code === 0 && line && !line.startsWith('!')) {
      // The remote holds this commit now: the next fetch judges the writes made since (checkClock).
      this.files.touchFetched(commit, now().getTime());
      return 'ok';
    }
    if (line?.startsWith('!')) {
      // The remote's own compare-and-swap lost to a push that came in between ("failed to update ref",
      // "cannot lock ref"): another clone wrote first, like a stale lease.
      if (line.includes('[remote rejected]') && !/failed to (update|lock) ref|cannot lock ref|incorrect old value/.test(line)) {
        const said = remoteSaid(r.stderr);
        fail('REMOTE_REFUSED', `The remote "${this.remote}" refused the board's update (${line.split('\t').pop()}); nothing was written.${said ? ` It said:\n  ${said}` : ''}`, `Make sure you may push ${BOARD_REF} to ${this.remote} (a hook or a ref protection may refuse it), then try ${SAME_CALL} again; or share the board through a remote that takes it, or stop sharing it with ${refTo('remote.disable')}.`);
      }
      this.lastTurnedDown = { line: line.split('\t').pop() ?? line, said: remoteSaid(r.stderr) };
      return 'moved';
    }
    return this.unreachable(r.stderr);
  }

  /**
   * Says on the remote that this clone keeps losing the race, so that the others give way for a
   * moment (a ref of its own: no other clone ever pushes it). Its value changes with every say, so
   * that a clone that stopped trying is told apart.
   */
  private sayWaiting(head: string | null): void {
    // Said lately: the others still take it as fresh (it is stale only after WAITING_STALE_MS unchanged).
    if (head === null || (this.waitingSaid !== null && Date.now() - this.waitingSaid < WAITING_STALE_MS / 3)) return;
    const ref = `${WAITING_REFS}${this.files.cloneId()}`;
    this.git.run(['push', '--quiet', '--no-verify', '--force', this.pushTo(), `${head}:${ref}`], { network: true });
    this.waitingSaid = Date.now();
  }

  /** Takes this clone's waiting ref off the remote: said by this process, or left there by one of this clone that died. */
  private doneWaiting(): void {
    const ref = `${WAITING_REFS}${this.files.cloneId()}`;
    if (this.waitingSaid === null && !this.files.waitingOf(this.files.cloneId())) return;
    this.git.run(['push', '--quiet', '--no-verify', this.pushTo(), `:${ref}`], { network: true });
    this.waitingSaid = null;
  }

  /**
   * Gives way, a moment at a time, while other clones say they keep losing the race: a clone that
   * has just written starts its next write sooner than one that lost, and without this it could
   * win every time (the capture effect). Returns the board commit fetched last.
   */
  private giveWay(head: string | null): string | null {
    const deadline = Date.now() + YIELD_MS;
    while (this.waitingSaid === null && this.files.othersWaiting(WAITING_STALE_MS) && Date.now() < deadline) {
      // About as long as a write takes here: looking sooner only takes time from the clone that waits.
      sleepSync(this.attemptMs * (0.5 + Math.random()));
      head = this.current();
    }
    return head;
  }

  /** Waits (a while) for a process that outlived the command that started it (a push, so that its outcome is known); false when it still runs. */
  private waitFor(marker: string, token: string): boolean {
    const deadline = Date.now() + ORPHAN_WAIT_MS;
    while (processesWith({ [marker]: token }).length > 0) {
      if (Date.now() > deadline) return false;
      sleepSync(100);
    }
    return true;
  }

  // ---- recovering -----------------------------------------------------------------------------------

  /** Settles a push that was interrupted or lost the remote: it landed, or it did not; never half. */
  private recover(): void {
    const pending = this.files.pending();
    if (!pending) return;
    this.waitFor(PUSH_MARKER, pending.token);
    const head = this.fetch();
    const landed = head !== null && (head === pending.commit || this.isAncestor(pending.commit, head));
    if (landed && pending.queue_id !== undefined) this.unqueue(pending.queue_id);
    rmSync(this.files.path('pending.json'), { force: true });
    this.board.notices.push({
      kind: 'recovered',
      message: landed
        ? `An interrupted write (${pending.summary}) had reached the shared board; this clone now shows it.`
        : `An interrupted write (${pending.summary}) had not reached the shared board; nothing of it was written.`,
    });
  }

  /** The ref this board's commits are built on before they are pushed: its own, in case two boards share a repository. */
  private outgoing(): string {
    return `refs/agentboard/outgoing/${this.files.cloneId()}`;
  }

  private ids: number | null = null;
  /** The length of object ids in this repository: 40 (SHA-1), or 64 in one that uses SHA-256. */
  private idLength(): number {
    this.ids ??= this.git.must(['rev-parse', '--show-object-format']) === 'sha256' ? 64 : 40;
    return this.ids;
  }

  /** What this clone shows: the last synced commit of this remote, or null. */
  synced(): Synced | null {
    const s = this.files.synced();
    return s && s.remote === this.remote ? s : null;
  }

  /** Fetches the board and brings the working tree's agentd/ to it; the commit, or null when the remote holds no board. */
  pull(): string | null {
    const head = this.rewound(this.fetch());
    if (head !== null && head !== this.synced()?.commit) this.checkClock();
    if (head !== null) this.bringTo(head);
    return head;
  }

  /**
   * Says when the clocks of the machines that share the board differ: every stamp on the board is
   * its writer's time, so claims made on a machine whose clock is behind look stale on one whose
   * clock is ahead (questions do not expire early there: noteQuestions). A clock behind sees the
   * write another clone just made stamped later than it says it is now. A clock ahead sees a write
   * made since its previous fetch (the remote then held the commit this clone shows, and the write
   * came after it) stamped earlier than that fetch; a write's stamp is when it started, and it may
   * have kept losing the race for REMOTE_PATIENCE_MS before it landed, so only more than that counts.
   */
  private checkClock(): void {
    const later = this.headTime - now().getTime();
    const prev = this.previousFetch;
    const earlier = prev !== null && prev.head === this.synced()?.commit ? prev.at - this.headTime - REMOTE_PATIENCE_MS : 0;
    if (later < CLOCK_SLACK_MS && earlier < CLOCK_SLACK_MS) return;
    const by = (ms: number) => (ms < 90 * 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3_600_000)} h`);
    const message =
      later >= CLOCK_SLACK_MS
        ? `The shared board's last write, by another clone, is stamped ${by(later)} later than this clone's clock says it is: the clocks of the machines that share the board differ. Claims made on a machine whose clock is behind look stale on one whose clock is ahead; set the clocks right (NTP).`
        : `The shared board's last write, by another clone, was made after this clone's previous sync but is stamped at least ${by(earlier)} earlier than this clone's clock said then: the clocks of the machines that share the board differ, and this clone's runs ahead. Claims made on a machine whose clock is behind look stale here; set the clocks right (NTP).`;
    // Said once, though a write that lost the race pulls again.
    if (!this.board.notices.some((n) => n.message === message)) this.board.notices.push({ kind: 'remote', message });
  }

  /**
   * agentboard only moves the board ref forward, so a remote whose board does not hold the commit
   * this clone last synced was rewritten (a force-push, a remote restored from a backup). Moved
   * back to an older commit of the board, it lost writes this clone has: they are put back,
   * pushed like any write (named against the value they replace), so that no claim or note agreed
   * on is lost and no task is handed out again. Moved back and written on since (a clone that had
   * not synced the last writes put its copy back), the writes this clone has and it lacks are merged
   * onto it (store/remote/fork.ts), with both histories as parents. Rewritten otherwise (another
   * history altogether), the remote's board is taken and this clone's last commit kept under a ref
   * a person can look at and push back (replaced). Returns the remote's commit.
   */
  private rewound(head: string | null): string | null {
    const mine = this.synced()?.commit;
    if (head === null || mine === undefined || head === mine || this.isAncestor(mine, head)) return head;
    const missing = this.git.run(['rev-list', '--count', `${head}..${mine}`]).stdout.toString('utf8').trim();
    if (!this.isAncestor(head, mine)) {
      const base = this.git.run(['merge-base', head, mine]).stdout.toString('utf8').trim();
      return base !== '' ? this.mergeOnto(head, mine, base) : this.replaced(head, mine, missing);
    }
    if (this.push(mine, head, newToken()) === 'moved') return this.rewound(this.fetch());
    this.git.run(['update-ref', this.tracking, mine]);
    this.board.notices.push({ kind: 'remote', message: `The shared board on "${this.remote}" had been moved back to an older commit (${head.slice(0, 12)}: a force-push, or a remote restored from a backup) and was missing ${missing} write${missing === '1' ? '' : 's'}; this clone had them and put them back.` });
    return mine;
  }

  /**
   * The remote's board is another history altogether: it is taken, and this clone's last commit is
   * kept under a ref. Which of the two is the shared board is a person's decision (putting the old
   * one back loses what was written on the new one since), so the notice gives the commands that put
   * it back, and `next` does not tell an agent its work is over (kind 'replaced'). A board put back
   * so, the one this clone kept, is said to be back, not taken as another rewrite (which would keep
   * the board that replaced it in its stead, and offer to push that back).
   */
  private replaced(head: string, mine: string, missing: string): string {
    const kept = `refs/agentboard/rewritten/${this.remote}`;
    const before = this.git.run(['rev-parse', '--verify', '--quiet', `${kept}^{commit}`]).stdout.toString('utf8').trim();
    this.git.run(['update-ref', kept, mine]);
    const look = `\`git log -p ${head.slice(0, 12)}..${kept}\``;
    if (before !== '' && this.isAncestor(before, head)) {
      this.board.notices.push({
        kind: 'remote',
        message: `The shared board on "${this.remote}" was put back to the one this clone kept when it was rewritten; this clone shows it again. The board it replaced meanwhile is kept as ${kept} now: ${look} shows its ${missing} write${missing === '1' ? '' : 's'} that the shared board does not have.`,
      });
      return head;
    }
    this.board.notices.push({
      kind: 'replaced',
      message: `The shared board on "${this.remote}" was rewritten (force-pushed) with another history: it no longer holds the commit this clone last synced (${mine.slice(0, 12)}), and ${missing} of its writes are not on it; this clone now shows the remote's board. Its last commit is kept as ${kept}: ${look} shows what the remote lost. A person decides which board is the shared one: to put this clone's back, run \`git push --force ${this.remote} ${kept}:${BOARD_REF} && agentboard remote sync\` here (what was written on the remote's board since is lost then, kept under the same ref in each clone that synced it; the other clones take the board back at their next sync); to keep the remote's, nothing is to be done.`,
    });
    return head;
  }

  /**
   * The remote's board (`head`) forked from this clone's (`mine`) at `base`: this clone's writes it
   * lacks are merged onto it and pushed, named against `head` like any write. What the remote's
   * board keeps over is said, and logged in the merge. Returns the commit the remote then holds.
   */
  private mergeOnto(head: string, mine: string, base: string): string | null {
    const at = now();
    const fork = mergeFork(this.git, base, mine, head, at.toISOString(), this.idLength());
    const message = `agentboard: merged ${fork.writes} write${fork.writes === 1 ? '' : 's'} the board lacked after it was moved back\n\n${fork.dropped.map((d) => d.summary).join('\n')}`;
    const commit = writeCommit(this.git, { parent: head, merge: mine, base: fork.theirs, listing: fork.listing, data: fork.data, message, author: 'agentboard', ref: this.outgoing(), at: at.getTime() });
    if (this.push(commit, head, newToken()) === 'moved') return this.rewound(this.fetch());
    this.git.run(['update-ref', this.tracking, commit]);
    this.board.notices.push({
      kind: 'remote',
      message: `The shared board on "${this.remote}" had been moved back to an older copy (a force-push, or a copy put back by a clone that had not synced the last writes) and written on since; ${fork.writes} write${fork.writes === 1 ? '' : 's'} of this clone's copy it lacked ${fork.writes === 1 ? 'is' : 'are'} merged onto it (board commit ${commit.slice(0, 12)}).`,
    });
    for (const d of fork.dropped) this.board.notices.push({ kind: 'remote', message: `${d.summary}; the board's activity log records it.` });
    return commit;
  }

  private isAncestor(commit: string, of: string): boolean {
    return this.git.run(['merge-base', '--is-ancestor', commit, of]).code === 0;
  }

  /**
   * Brings the working tree's agentd/ to a board commit; by default to the one this clone last
   * synced, without asking the remote (after git itself rewrote files there).
   */
  bringTo(commit = this.synced()?.commit): void {
    if (commit === undefined) return;
    const base = this.synced();
    const target = commit === base?.commit ? { commit, listing: base.listing } : targetOf(this.git, commit);
    this.board.notices.push(...Reconciler.run(this.board, this.git, this.files, this.remote, target, base));
  }

  /** Holding the lock: settles an interrupted push and brings agentd/ to the remote's board. */
  sync(): string {
    this.recover();
    this.settleAside();
    const head = this.current();
    this.noteQuestions();
    return head;
  }

  /**
   * Records when this clone first knew of each open question, by its own clock: its own write that
   * asked it, or the sync that brought it. Every time on the board is its writer's clock, so a
   * question asked on a machine whose clock is behind looks long past its deadline on one whose clock
   * is ahead; it expires there only once its time has passed there too since then (expireInputs).
   * Read again only when the runtime store this clone shows changed.
   */
  private noteQuestions(): void {
    const state = this.synced()?.listing[STATE_PATH]?.blob;
    const seen = this.files.seen();
    if (state === undefined || state === seen.state) return;
    const read = readBoardFile(this.board.runtimePath, this.board.rel(this.board.runtimePath));
    let inputs: Record<string, { status?: string }> = {};
    try {
      inputs = (JSON.parse(read?.text ?? '{}') as { inputs?: typeof inputs }).inputs ?? {};
    } catch {
      return;
    }
    const t = now().getTime();
    const at = Object.fromEntries(Object.entries(inputs).flatMap(([id, input]) => (input.status === 'open' ? [[id, seen.at[id] ?? t]] : [])));
    this.files.writeSeen({ state, at });
  }

  /** Fetches the board and brings agentd/ to it; the commit. A remote that holds none is missing(). */
  private current(): string {
    return this.pull() ?? this.missing();
  }

  /**
   * The remote holds no board: never shared there yet, deleted there, or the remote's URL now leads
   * to a repository without it (a repository moved to another host keeps its branches, not always
   * other refs). Nothing puts a board there by itself: a clone cannot tell whether another synced
   * later than it did, and a copy put back from one that synced earlier would lose the writes made
   * since (claims among them), as would a clone that never synced putting its own board there. A
   * person does it, with an operation that says so (WriteIntent.publish): this clone's copy as last
   * synced, pushed as it is (remote sync), or, in a clone that never synced, its board as the first
   * commit (remote enable). Returns the commit the remote then holds.
   */
  private missing(): string {
    const mine = this.synced();
    const publish = writeIntent()?.publish;
    // The board named in agentd/config.yaml may be shared through another of this clone's remotes (its origin a fork, say).
    const elsewhere = this.boardElsewhere();
    const renames = `(\`git remote rename ${this.remote} <another name>\`, then \`git remote rename ${elsewhere} ${this.remote}\`)`;
    const rename = elsewhere && `"${this.remote}" here may not be the repository the other clones share the board through: this clone's remote "${elsewhere}" holds a shared board. If it is that repository, give it the name the other clones use ${renames}`;
    if (!mine && publish === 'board') {
      // Sharing a board of its own where another remote holds one would split the board in two.
      if (elsewhere && this.board.config.remote === this.remote) {
        fail('REMOTE_NO_BOARD', `The remote "${this.remote}" holds no shared board (${BOARD_REF}), and this clone never synced one; nothing was written.`, `${rename}; then try ${SAME_CALL} again. If it is not (an old mirror, say), this clone's board is shared through "${this.remote}" by ${SAME_CALL} once "${elsewhere}" is no longer a remote here (\`git remote remove ${elsewhere}\`; add it back afterwards).`);
      }
      return this.publishLocal() ?? this.pull() ?? this.missing();
    }
    if (!mine || !publish) {
      const none = `The remote "${this.remote}" holds no shared board (${BOARD_REF}): it was deleted there, or the remote's URL now leads to a repository without it`;
      const person = `${rename ? `${rename}. Otherwise a` : 'A'} person puts the board back with ${refTo('remote.sync')} in the clone that synced it last (${refTo('remote.status')} shows each clone's board commit and last sync)`;
      if (mine) fail('REMOTE_NO_BOARD', `${none}; nothing was written. This clone shows board commit ${mine.commit.slice(0, 12)}.`, `${person}; then try ${SAME_CALL} again.`);
      fail('REMOTE_NO_BOARD', `${none}, or it was never shared; this clone never synced it, so it has no copy to put back, and nothing was written.`, `${person}, or, when the board was never shared (agentd/config.yaml was given the remote by hand), shares this clone's board with ${refTo('remote.enable')} here; then try ${SAME_CALL} again.`);
    }
    if (this.push(mine.commit, null, newToken()) === 'moved') return this.current();
    this.git.run(['update-ref', this.tracking, mine.commit]);
    const also = elsewhere ? ` This clone's remote "${elsewhere}" holds a shared board too: if the other clones share the board through it, give it the name they use ${renames}.` : '';
    this.board.notices.push({ kind: 'remote', message: `The remote "${this.remote}" held no shared board; this clone put its copy back (board commit ${mine.commit.slice(0, 12)}). A clone that synced a later commit puts the writes it has back at its next sync.${also}` });
    return mine.commit;
  }

  /** Another remote of this clone's that holds a shared board (the first of a few looked at), or null. */
  private boardElsewhere(): string | null {
    const names = this.git.run(['remote']).stdout.toString('utf8').split('\n').filter((n) => n && n !== this.remote);
    for (const name of names.slice(0, 3)) {
      const r = this.git.run(['ls-remote', '--refs', name, BOARD_REF], { network: true });
      if (r.code === 0 && r.stdout.length > 0) return name;
    }
    return null;
  }

  // ---- git commands run with the board's copies out of their way (ops/remote.ts) --------------------

  /** agentd/changes and agentd/archive, as git names them (from the board's root, where it runs). */
  areas(): string[] {
    return ['changes', 'archive'].map((a) => this.board.rel(join(this.board.dir, a)));
  }

  /** The path in the board ref's tree of a file git names (from the board's root). */
  treePath(gitPath: string): string {
    return relative(this.board.dir, join(this.board.root, gitPath)).split(sep).join('/');
  }

  /** Whether a blob was a version of a file (by its tree path) on the shared board, up to the commit this clone last synced. */
  heldOnce(treePath: string, blob: string): boolean {
    const commit = this.synced()?.commit;
    if (commit === undefined) return false;
    const r = this.git.run(['log', '--format=', '--raw', '--no-abbrev', '--no-renames', commit, '--', treePath]);
    return r.stdout.toString('utf8').split('\n').some((l) => l.split(' ')[3] === blob);
  }

  /**
   * Runs a git command that rewrites the working tree (git pull, git switch) once `makeWay` has
   * taken the board's copies out of its way, and brings agentd/ back to the shared board after it,
   * whether git succeeded or not (afterGit). The lock is held. aside.json says meanwhile that the
   * copies are away: a command killed half-way leaves it, and the next command, a read too, puts
   * the board back (settleAside).
   */
  runAside(makeWay: () => void, args: string[]): GitResult {
    const aside: Aside = { token: newToken(), git: `git ${args[0]}`, at: new Date().toISOString() };
    this.files.writeAside(aside);
    try {
      makeWay();
      faultPoint('remote:aside');
      return this.git.run(args, { network: args[0] === 'pull', env: { [ASIDE_MARKER]: aside.token } });
    } finally {
      this.afterGit(aside);
    }
  }

  /**
   * Before a read: a remote pull or remote switch killed while its git ran left the board's files
   * out of git's way; they are put back (locally, without the remote), so that the read never takes
   * the branch's older snapshot for the board.
   */
  async settleForRead(): Promise<void> {
    if (this.files.aside()) await this.board.locked(() => this.settleAside());
  }

  /**
   * Holding the lock: after a git command run aside whose command was killed, puts the shared board
   * back once that git has ended (while it still runs, says that agentd/ may be stale); after one
   * that stopped half-way, settles what the person's git commands left since (afterGit).
   */
  settleAside(): void {
    const aside = this.files.aside();
    if (!aside) return;
    if (aside.midway) return this.afterGit(aside);
    const how = `A ${aside.git} that ${refTo(aside.git === 'git pull' ? 'remote.pull' : 'remote.switch')} started (${aside.at})`;
    if (!this.waitFor(ASIDE_MARKER, aside.token)) {
      this.board.notices.push({ kind: 'remote', message: `${how} is still running, with the board's files out of its way: agentd/ may show an older board than the shared one until it ends; try ${SAME_CALL} again then.` });
      return;
    }
    this.afterGit(aside);
    this.board.notices.push({ kind: 'recovered', message: `${how} was interrupted with the board's files out of its way; agentd/ shows the shared board again.` });
  }

  /**
   * After git rewrote the working tree: agentd/ is brought back to the shared board as last synced
   * (a board file git stopped on is settled to it: store/remote/reconcile.ts). While git waits for
   * a person to finish a merge or a rebase, the board's files it stopped on are staged, so that
   * plain git finishes it; a rebase goes on only with nothing unstaged, so there the board's other
   * tracked files are staged too (a merge commits without them). aside.json stays until git is done,
   * so that every command meanwhile does the same for what the person's `git rebase --continue`
   * stops on next. Staging is a help, not a must: git busy with the index leaves it to the person.
   */
  private afterGit(aside: Aside): void {
    const listing = this.synced()?.listing ?? {};
    const boardFiles = (flags: string[]) => {
      const listed = this.git.run(['ls-files', '-z', ...flags, '--', ...this.areas()]).stdout.toString('utf8').split('\0').filter(Boolean);
      const paths = [...new Set(listed.map((l) => l.replace(/^\d+ [0-9a-f]+ \d\t/, '')))];
      return paths.filter((p) => listing[this.treePath(p)] !== undefined);
    };
    const unmerged = boardFiles(['--unmerged']);
    this.bringTo();
    const midway = this.git.midway();
    const stage = midway === 'rebase' ? [...new Set([...unmerged, ...boardFiles(['--modified'])])] : midway === 'merge' ? unmerged : [];
    if (stage.length > 0) this.git.run(['--literal-pathspecs', 'add', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: stage.join('\0') });
    if (midway) this.files.writeAside({ ...aside, midway: true });
    else rmSync(this.files.path('aside.json'), { force: true });
  }

  // ---- writing --------------------------------------------------------------------------------------

  /** One operation's write on the shared board (see the top of this file); the lock is held. */
  write<T>(lock: BoardLock, fn: (tx: Transaction) => T): T {
    const intent = writeIntent();
    // Another process replaying this clone's queue may have pushed this write since it was read: once is all.
    if (intent?.replay && !this.files.queue().entries.some((e) => e.id === intent.replay!.id && !e.refused)) throw new ReplayedElsewhere();
    this.unsettled = null;
    this.unmoved = 0;
    let head: string | null;
    try {
      head = this.giveWay(this.sync());
    } catch (err) {
      if (intent?.queueable && isCode(err, 'REMOTE_UNREACHABLE')) return this.queueLocally(lock, fn, intent);
      throw err;
    }
    let last: { tx: Transaction; result: T } | null = null;
    const run = (tx: Transaction): T => {
      const result = fn(tx);
      if (intent?.replay) this.checkReplay(tx, intent);
      last = { tx, result };
      return result;
    };
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt > 1) head = this.again(head, attempt);
        const t0 = Date.now();
        const result = this.board.write(lock, run, this.publisher(head, intent, t0));
        if (intent?.replay) this.unqueue(intent.replay.id); // a replay that changed nothing leaves no commit to take it off the queue
        this.doneWaiting();
        this.noteQuestions();
        return result;
      } catch (err) {
        const done = last as { tx: Transaction; result: T } | null;
        if (err instanceof PublishedThenChanged && done) return this.landed(done.result);
        if (intent?.queueable && isCode(err, 'REMOTE_UNREACHABLE') && done) {
          this.enqueue(done.tx, intent);
          return done.result;
        }
        this.rejected(err, started, attempt);
      }
    }
  }

  /**
   * Agents' calls carried out together (ops/combine.ts), the lock held: `once` runs them in one
   * transaction and commits it, pushed first with `publish`, so that the batch is one push; run
   * again, after a pull, when another clone wrote first. `last` is the outcome of the last run;
   * `commitAlone` gets it when the push landed but a person's save kept the commit from being made
   * here (what goes with the outcomes is then committed alone). The remote out of reach fails the batch:
   * each call is then carried out alone (its caller queues it offline as a write of its own would be).
   */
  async writeBatch<T>(once: (publish: (tx: Transaction) => Publish) => Promise<T>, last: () => T | undefined, commitAlone: (result: T) => void): Promise<T> {
    this.unsettled = null;
    this.unmoved = 0;
    let head = this.giveWay(this.sync());
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt > 1) head = this.again(head, attempt);
        const t0 = Date.now();
        const result = await once(this.publisher(head, undefined, t0));
        this.doneWaiting();
        this.noteQuestions();
        return result;
      } catch (err) {
        const done = last();
        if (err instanceof PublishedThenChanged && done !== undefined) {
          commitAlone(this.landed(done));
          return done;
        }
        this.rejected(err, started, attempt);
      }
    }
  }

  /**
   * Before a write runs again (its push was refused): says so once it keeps losing, waits a moment,
   * and pulls what the others wrote. A push turned down as if another clone had written first, while
   * the remote's board stays where it was, lost to nobody: a push that goes to another repository
   * than the fetch reads, or a ref the remote cannot update (a lock file left there). It is said
   * after a few, instead of retried for REMOTE_PATIENCE_MS.
   */
  private again(head: string | null, attempt: number): string | null {
    if (attempt > WAIT_AFTER) this.sayWaiting(head);
    sleepSync(Math.random() * 5);
    const next = this.giveWay(this.current());
    this.unmoved = next === head ? this.unmoved + 1 : 0;
    if (this.unmoved >= UNMOVED_MAX) {
      const { line, said } = this.lastTurnedDown ?? { line: 'stale info', said: '' };
      fail(
        'REMOTE_REFUSED',
        `The remote "${this.remote}" turned the board's update down ${attempt - 1} times as if another clone had written first (${line}), but its board has not moved; nothing was written.${said ? ` It said:\n  ${said}` : ''}`,
        `Check that pushes to "${this.remote}" reach the repository its fetches read (\`git remote get-url --push ${this.remote}\`, a pushInsteadOf setting), and that nothing holds ${BOARD_REF} there (a ${BOARD_REF}.lock file a crashed git left on the server: remove it); then try ${SAME_CALL} again.`,
      );
    }
    return next;
  }

  /** A write pushed whose local files then changed: it stands; the board is pulled. */
  private landed<T>(result: T): T {
    this.doneWaiting();
    this.pull();
    rmSync(this.files.path('pending.json'), { force: true });
    return result;
  }

  /** A write that failed: a refused push runs again (returns), until the remote keeps changing too long; anything else is thrown. */
  private rejected(err: unknown, started: number, attempt: number): void {
    if (!(err instanceof RemoteMoved)) throw err;
    if (Date.now() - started > REMOTE_PATIENCE_MS) {
      fail('REMOTE_BUSY', `The shared board kept changing on "${this.remote}" while this write was tried ${attempt} times; nothing was written.`, `Try ${SAME_CALL} again.`);
    }
  }

  /** Offline: the operation runs on the local copy (its rules are checked there), and its write is queued instead of committed. */
  private queueLocally<T>(lock: BoardLock, fn: (tx: Transaction) => T, intent: WriteIntent): T {
    const tx = new Transaction(this.board, lock);
    const result = fn(tx);
    // A claim is made with the remote only (another clone may hold the task): a report that would claim a task waits for it.
    const actor = String(intent.queueable!.input.agent_id ?? '');
    const taken = tx.touchedClaims().find((c) => c.assignee !== actor && holderIn(tx, c.task_id) === actor);
    if (taken) {
      fail(
        'REMOTE_UNREACHABLE',
        `The remote "${this.remote}" could not be reached, and this write would make ${taken.task_id} yours: on a shared board a task is claimed only with the remote, where another clone may hold it already. Nothing was written or queued.`,
        `Try again once the remote can be reached (${refTo('remote.status')} says when this clone last reached it); a note or progress on a task you already hold is queued meanwhile.`,
      );
    }
    this.enqueue(tx, intent);
    return result;
  }

  /** Takes a write off the queue (when it is there still). */
  unqueue(id: number): void {
    const queue = this.files.queue();
    if (!queue.entries.some((e) => e.id === id)) return;
    queue.entries = queue.entries.filter((e) => e.id !== id);
    this.files.writeQueue(queue);
  }

  /**
   * Marks a queued write as refused by the rules: kept for a person, never replayed. The command
   * whose sync replayed it says so, and the board's activity log with the next write that lands.
   */
  refuse(id: number, err: AgentboardError): void {
    const queue = this.files.queue();
    const entry = queue.entries.find((e) => e.id === id);
    if (!entry) return;
    entry.refused = { code: err.code, message: err.message, at: new Date().toISOString() };
    this.files.writeQueue(queue);
    const task = entry.claims[0]?.task_id ?? String(entry.input.task_id ?? entry.actor);
    // The shared log names the write and its agent; what the agent was told is quoted, not said to whoever reads the log.
    const what = err.code === 'QUEUED_WRITE_REFUSED' ? err.message : `The write #${entry.id} that ${entry.actor} queued offline (${entry.summary}) is not applied: the board refuses it now (${err.code}: ${err.message.replace(/\.$/, '')}).`;
    const summary = `${what} It stays in the queue of the clone that made it offline.`;
    this.files.writeDropped([...this.files.dropped(), { action: 'remote.queued_refused', target: task, ...(task.includes('/') ? { change_id: task.split('/')[0]! } : {}), summary }]);
    // Told to whoever synced, not to the agent that queued it: the write is named with its agent, and what it was told is quoted.
    const said = err.code === 'QUEUED_WRITE_REFUSED' ? `${err.message} ${err.nextStep}` : `${what} It stays in this clone's queue: ${refTo('remote.status')} shows it, ${refTo('remote.drop', { queue_id: entry.id })} removes it.`;
    this.board.notices.push({ kind: 'remote', message: said });
  }

  /** The remote's URL as it may be shown (without credentials), or null when this clone has no such remote. */
  url(): string | null {
    const url = this.git.remoteUrl(this.remote);
    return url === null ? null : shownUrl(url);
  }

  /** Refuses, before anything is tried, a board that cannot be shared through this remote. */
  check(): string {
    if (!this.git.inRepository()) fail('NOT_A_GIT_REPOSITORY', 'This board is not in a git repository; a shared board lives in a git remote.', 'Run `git init` (and add a remote), or run agentboard in a clone of the repository.');
    const url = this.git.remoteUrl(this.remote);
    if (url === null) fail('REMOTE_NOT_FOUND', `This repository has no git remote "${this.remote}".`, `Add it with \`git remote add ${this.remote}\` followed by its URL, or name one of \`git remote -v\`.`);
    return shownUrl(url);
  }

  private enqueue(tx: Transaction, intent: WriteIntent): void {
    const q = intent.queueable!;
    const queue = this.files.queue();
    const id = queue.next_id++;
    queue.entries.push({ id, op: q.op, input: q.input, actor: String(q.input.agent_id ?? ''), summary: tx.logged.map((e) => e.summary).join('; ') || q.op, claims: tx.touchedClaims(), queued_at: tx.now });
    this.files.writeQueue(queue);
    if (this.unsettled) {
      // The failed push may still have landed: if it did, the queued copy must not be replayed.
      this.files.writePending({ ...this.unsettled, queue_id: id });
      this.unsettled = null;
    }
    const waiting = queue.entries.filter((e) => !e.refused).length;
    this.board.notices.push({ kind: 'remote', message: `The remote "${this.remote}" could not be reached, so this write was queued (${waiting} waiting); it is pushed in order on the next sync, and only while your claim of the task still holds then (${refTo('remote.status')} shows the queue).` });
  }

  private checkReplay(tx: Transaction, intent: WriteIntent): void {
    const entry = intent.replay!;
    const now = new Map(tx.touchedClaims().map((c) => [c.task_id, c]));
    for (const then of entry.claims) {
      const c = now.get(then.task_id);
      if (c && c.assignee === then.assignee && c.claimed_at === then.claimed_at) continue;
      const state = !c ? 'no longer there' : c.assignee ? `held by ${c.assignee} since ${c.claimed_at ?? 'earlier'}` : 'held by nobody';
      fail(
        'QUEUED_WRITE_REFUSED',
        `The queued write #${entry.id} (${entry.summary}) was made while ${then.assignee ?? 'nobody'} held ${then.task_id}${then.claimed_at ? ` (claimed ${then.claimed_at})` : ''}; that task is now ${state}, so the write is not applied.`,
        `It stays in the queue for a person to look at (${refTo('remote.status')}); apply it by hand if it still matters, then remove it with ${refTo('remote.drop', { queue_id: entry.id })}.`,
      );
    }
  }

  /**
   * The publish of a write's transaction. What this clone wrote while it did not share the board and
   * the shared board did not keep (dropped.json, found as it joined) is logged in it first, so that
   * the board's activity log says so with the first write that lands.
   */
  private publisher(head: string | null, intent: WriteIntent | undefined, started: number): (tx: Transaction) => Publish {
    return (tx) => {
      const dropped = this.files.dropped();
      for (const d of dropped) tx.log('agentboard', d.action, d.target, d.summary, d.change_id);
      return (journal) => this.publish(journal, tx, head, intent, started, dropped.length > 0);
    };
  }

  /**
   * The commit of this write: the fetched tree with what the journal changes in shared files, and
   * the push. On success the new state is recorded in the same journal (and dropped.json, logged
   * by it, removed); on a rejection nothing local has changed.
   */
  private publish(journal: Journal, tx: Transaction, head: string | null, intent: WriteIntent | undefined, started: number, loggedDropped: boolean): void {
    const board = this.board;
    const base = this.synced();
    const listing: Listing = { ...(base?.listing ?? {}) };
    const identities: Record<string, string> = { ...(base?.identities ?? {}) };
    const fromRoot = (p: string) => join(board.root, p);
    const treePath = (p: string) => treePathOf(relative(board.dir, fromRoot(p)).split('\\').join('/'));

    const data = new Map<string, Buffer>();
    const store = storeIn(listing, identities, data, this.idLength());
    for (const f of journal.files) {
      const p = treePath(f.target);
      if (p) store(p, readFileSync(fromRoot(f.temp)), identityOf(lstatSync(fromRoot(f.temp))));
    }
    for (const d of journal.dirs) {
      const p = treePath(d.target);
      if (!p) continue;
      for (const rel of filesUnder(fromRoot(d.temp))) {
        const file = join(fromRoot(d.temp), rel);
        store(`${p}/${rel}`, readFileSync(file), identityOf(lstatSync(file)));
      }
    }
    for (const m of journal.moves) {
      const from = treePath(m.from);
      const to = treePath(m.to);
      if (!from || !to) continue;
      for (const p of Object.keys(listing).filter((k) => k.startsWith(`${from}/`))) {
        const moved = `${to}${p.slice(from.length)}`;
        listing[moved] = listing[p]!;
        delete listing[p];
        if (identities[p]) identities[moved] = identities[p]!;
        delete identities[p];
      }
    }
    for (const r of journal.removes) {
      const p = treePath(r);
      if (p) {
        delete listing[p];
        delete identities[p];
      }
    }
    if (journal.activity) {
      const target = activityTarget(listing);
      const known = listing[target.path];
      let chunk: Buffer;
      if (journal.activity.offset === activitySize(listing)) chunk = readRange(board.activityPath, target.start, journal.activity.offset);
      else chunk = known ? readBlobs(this.git, [known.blob]).get(known.blob)! : Buffer.alloc(0);
      store(target.path, Buffer.concat([chunk, Buffer.from(journal.activity.text.replace(/^\n/, ''), 'utf8')]));
    }

    // A write that changes nothing shared (a batch of calls that only answered, say) pushes nothing: a push is spent on no commit that records nothing.
    if (base && !intent?.replay && sameListing(listing, base.listing)) return;
    // A batch of several agents' calls (ops/combine.ts) names each entry's actor.
    const several = new Set(tx.logged.map((e) => e.actor)).size > 1;
    const summaries = tx.logged.map((e) => (several ? `${e.actor}: ${e.summary}` : e.summary));
    const author = several ? 'agentboard' : (tx.logged[0]?.actor ?? 'agentboard');
    const summary = summaries.join('; ') || 'sync';
    const message = several ? `agentboard: ${summaries.length} writes of agents\n\n${summaries.join('\n')}` : `${author}: ${summaries[0] ?? 'sync'}\n\n${summaries.slice(1).join('\n')}`;
    const commit = writeCommit(this.git, { parent: base?.commit ?? null, base: base?.listing ?? {}, listing, data, message, author, ref: this.outgoing(), at: Date.parse(tx.now) });
    const pending: Pending = { commit, parent: base?.commit ?? null, token: newToken(), summary: summary.slice(0, 300), at: tx.now };
    if (intent?.replay) pending.queue_id = intent.replay.id;
    this.files.writePending(pending);
    faultPoint('remote:push');
    let outcome: 'ok' | 'moved';
    try {
      outcome = this.push(commit, head, pending.token);
      this.attemptMs = this.fetchMs + Date.now() - started;
    } catch (err) {
      if (isCode(err, 'REMOTE_UNREACHABLE')) this.unsettled = pending;
      else rmSync(this.files.path('pending.json'), { force: true });
      throw err;
    }
    faultPoint('remote:pushed');
    if (outcome === 'moved') {
      rmSync(this.files.path('pending.json'), { force: true });
      faultPoint('remote:moved');
      throw new RemoteMoved();
    }
    this.stage(journal, this.files.path('synced.json'), RemoteFiles.syncedText({ remote: this.remote, commit, listing, identities }));
    if (intent?.replay) {
      const queue = this.files.queue();
      queue.entries = queue.entries.filter((e) => e.id !== intent.replay!.id);
      this.stage(journal, this.files.path('queue.json'), RemoteFiles.queueText(queue));
    }
    journal.removes.push(board.rel(this.files.path('pending.json')));
    if (loggedDropped) journal.removes.push(board.rel(this.files.path('dropped.json')));
  }

  private stage(journal: Journal, path: string, text: string): void {
    const temp = tempPath(path, journal.token);
    writeNewFile(temp, text, this.board.rel(path));
    journal.files.push({ target: this.board.rel(path), temp: this.board.rel(temp) });
  }

  /**
   * The board's first commit on the remote: this clone's board as it is. Returns the commit, or
   * null when another clone published first (then this clone joins the remote's board).
   */
  publishLocal(): string | null {
    const board = this.board;
    const listing: Listing = {};
    const identities: Record<string, string> = {};
    const data = new Map<string, Buffer>();
    const store = storeIn(listing, identities, data, this.idLength());
    for (const area of ['changes', 'archive']) {
      for (const rel of filesUnder(join(board.dir, area))) {
        const file = join(board.dir, area, rel);
        store(`${area}/${rel}`, readFileSync(file), identityOf(lstatSync(file)));
      }
    }
    const state = readBoardFile(board.runtimePath, board.rel(board.runtimePath));
    if (state) store(STATE_PATH, Buffer.from(state.text, 'utf8'), state.identity);
    const activity = Buffer.from(readBoardFile(board.activityPath, board.rel(board.activityPath))?.text ?? '', 'utf8');
    for (const chunk of cutActivity(activity)) store(chunk.path, chunk.bytes);
    const commit = writeCommit(this.git, { parent: null, base: {}, listing, data, message: 'agentboard: the board is shared', author: 'agentboard', ref: this.outgoing(), at: now().getTime() });
    if (this.push(commit, null, newToken()) === 'moved') return null;
    this.files.ensureDir();
    writeFileAtomic(this.files.path('synced.json'), RemoteFiles.syncedText({ remote: this.remote, commit, listing, identities }), board.rel(this.files.path('synced.json')));
    return commit;
  }
}
