/** Content hashes for files and canonical JSON values. */
import * as crypto from 'crypto';
import * as fs from 'fs';

/** sha256 hex of a file's bytes. @throws when the file cannot be read. */
export function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** sha256 hex of a string or buffer. */
export function sha256(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * JSON with object keys sorted at every level by UTF-16 code unit (the default sort: the same
 * on every machine and locale), so equal values serialize, and hash, equally. The one
 * canonical form in lockin: model-call cache keys, manifest hashes and input comparisons.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );
}

/**
 * The manifest hashes' serialization before the two canonical forms were made one (keys sorted
 * with localeCompare). Only to recognize a study.json written by an earlier lockin.
 */
export function legacyCanonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
