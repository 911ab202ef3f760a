/**
 * An invocation's transcript (what the agent printed, stdout and stderr), capped: its first
 * TRANSCRIPT_HEAD bytes are written as they come, its last TRANSCRIPT_TAIL bytes are kept and written
 * at the end, and what lies between is left out with a line that says how many bytes. A looping
 * agent cannot fill the disk under agentd/.runtime. The run's secrets are masked before any of it is
 * kept (a key split across two chunks too, or lying across the end of the head), so the counts are
 * of the output as recorded, with "***" for each secret.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { SecretMasker } from './secrets.js';

export const TRANSCRIPT_HEAD = 1024 * 1024;
export const TRANSCRIPT_TAIL = 1024 * 1024;

export class Transcript {
  private readonly stream: WriteStream;
  private headLeft = TRANSCRIPT_HEAD;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;
  private readonly masker: SecretMasker;

  constructor(path: string, secrets: readonly string[]) {
    this.stream = createWriteStream(path);
    // A full disk stops the transcript where it is, not the run: the board's own writes say what failed.
    this.stream.on('error', () => {});
    this.masker = new SecretMasker(secrets);
  }

  /** Records a chunk of output; returns what of it is recorded so far, masked. */
  write(chunk: string): string {
    const masked = this.masker.push(chunk);
    this.keep(masked);
    return masked;
  }

  private keep(text: string): void {
    let buf = Buffer.from(text);
    if (this.headLeft > 0) {
      const n = Math.min(buf.length, this.headLeft);
      this.stream.write(buf.subarray(0, n));
      this.headLeft -= n;
      buf = buf.subarray(n);
    }
    if (buf.length === 0) return;
    this.tail.push(buf);
    this.tailBytes += buf.length;
    while (this.tailBytes > TRANSCRIPT_TAIL) {
      const first = this.tail[0]!;
      const over = Math.min(first.length, this.tailBytes - TRANSCRIPT_TAIL);
      if (over === first.length) this.tail.shift();
      else this.tail[0] = first.subarray(over);
      this.tailBytes -= over;
      this.dropped += over;
    }
  }

  end(): Promise<void> {
    this.keep(this.masker.end());
    if (this.dropped > 0) {
      const total = TRANSCRIPT_HEAD + this.dropped + this.tailBytes;
      this.stream.write(`\n[agentboard: ${this.dropped} bytes of output left out here; this transcript keeps the first ${TRANSCRIPT_HEAD} and the last ${this.tailBytes} of ${total} bytes]\n`);
    }
    for (const buf of this.tail) this.stream.write(buf);
    // 'close' comes whether the stream ended or failed (its 'finish' never comes after an error).
    return new Promise((resolve) => {
      if (this.stream.closed) return resolve();
      this.stream.once('close', () => resolve());
      this.stream.end();
    });
  }
}
