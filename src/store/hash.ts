/** The SHA-1 of a text, in hex: how agentboard recognises bytes it wrote (and items it fingerprinted). */
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12 and later) hashes in one call, without a Hash object per text: many times
// faster for the small texts of fingerprints.
const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

export function sha1(text: string): string {
  return oneShot ? oneShot('sha1', text) : crypto.createHash('sha1').update(text).digest('hex');
}
