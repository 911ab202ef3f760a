/**
 * An invocation's transcript (what the agent printed, stdout and stderr), capped: its first
 * TRANSCRIPT_HEAD bytes are written as they come, its last TRANSCRIPT_TAIL bytes are kept and written
 * at the end, and what lies between is left out with a line that says how many bytes. A looping
 * agent cannot fill the disk under agentd/.runtime.
 */
import { createWriteStream, type WriteStream } from 'node:fs';

export const TRANSCRIPT_HEAD = 1024 * 1024;
export const TRANSCRIPT_TAIL = 1024 * 1024;

export class Transcript {
  private readonly stream: WriteStream;
  private headLeft = TRANSCRIPT_HEAD;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path);
  }

  write(chunk: string): void {
    let buf = Buffer.from(chunk);
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
    if (this.dropped > 0) {
      const total = TRANSCRIPT_HEAD + this.dropped + this.tailBytes;
      this.stream.write(`\n[agentboard: ${this.dropped} bytes of output left out here; this transcript keeps the first ${TRANSCRIPT_HEAD} and the last ${this.tailBytes} of ${total} bytes]\n`);
    }
    for (const buf of this.tail) this.stream.write(buf);
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
