// argon2id with OWASP's recommended parameters (19 MiB, 2 iterations, 1 lane).
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../errors.ts';

// Algorithm.Argon2id is a const enum (2) that isolated modules cannot import by name.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    // A stored hash argon2 cannot parse matches no password.
    return false;
  }
}

// Verified against a throwaway hash when the email is unknown, so timing does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  await verifyPassword(await dummyHash, password);
}

/** NIST 800-63B style: length over composition rules. */
export function assertStrongPassword(password: string, email: string): void {
  if (password.length < 10) throw new AppError('WEAK_PASSWORD', 'The password must be at least 10 characters long.');
  if (password.length > 256) throw new AppError('WEAK_PASSWORD', 'The password must be at most 256 characters long.');
  if (password.toLowerCase() === email.toLowerCase())
    throw new AppError('WEAK_PASSWORD', 'The password must not be the email address.');
  if (new Set(password).size < 4) throw new AppError('WEAK_PASSWORD', 'The password must not repeat a few characters.');
}
