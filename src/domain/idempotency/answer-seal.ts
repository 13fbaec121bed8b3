// Stored answers are sealed (AES-256-GCM) with a key derived from the service's signing secret: an answer
// may hold a secret shown once (a new API key), and a copy of the database alone must not reveal it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface AnswerSeal {
  seal(text: string): string;
  /** The sealed text, or null when it was sealed with another secret (JWT_SECRET changed) or altered. */
  open(sealed: string): string | null;
}

const VERSION = 'v1.';

export function createAnswerSeal(secret: string): AnswerSeal {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'idempotency-answers', 32));
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!sealed.startsWith(VERSION)) return null;
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
