/**
 * The keyed hash behind a session's address cookies (src/shared/session/addressProof.ts):
 * HMAC-SHA-256 of the node's packet API key under a secret drawn for each
 * session, first four bytes. Without the secret a cookie cannot be guessed
 * better than one in 2^32, and knowing the cookie for one's own address tells
 * nothing about another's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { CookieMac } from '../../shared/session/addressProof';

export function sessionCookies(): CookieMac {
  const secret = randomBytes(32);
  return (key) => createHmac('sha256', secret).update(key).digest().readUInt32BE(0);
}
