/** The SHA-1 in hex: how agentboard recognises bytes it wrote (and items it fingerprinted). */
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12 and later) hashes in one call, without a Hash object per text: many times
// faster for the small texts of fingerprints.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer) => string }).hash;

/** Of a text (its UTF-8 bytes) or of bytes. */
export function sha1(data: string | Buffer): string {
  return oneShot ? oneShot('sha1', data) : crypto.createHash('sha1').update(data).digest('hex');
}
