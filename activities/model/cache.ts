/**
 * The model-call cache (README "Inspecting and resuming"): key = sha256 of the full
 * request (backend, model, parameters, headers, system, messages) in canonical JSON; entries at
 * `<LOCKIN_HOME>/cache/model/<key>.json`. An entry is verified on load (the hash of its stored
 * request must equal its key) so a corrupted or hand-edited entry is never served. Only
 * successful, non-refused replies are stored (the gateway decides; see gateway.ts).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome } from '../common/paths';
import { canonicalJson } from '../store/hash';
import type { BackendReply } from './backends/types';

export { canonicalJson };

/** The cache key of a request: sha256 (hex) of its canonical JSON. */
export function cacheKey(request: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(request)).digest('hex');
}

export function cacheDir(): string {
  return path.join(lockinHome(), 'cache', 'model');
}

export interface CacheEntry {
  key: string;
  request: unknown;
  reply: BackendReply;
  storedAt: string;
}

/**
 * Returns the cached reply for `key`, or null when absent or when the entry fails verification
 * (unparseable, or the stored request does not hash to the key; such an entry is ignored).
 */
export function cacheGet(key: string): CacheEntry | null {
  const file = path.join(cacheDir(), `${key}.json`);
  if (!fs.existsSync(file)) return null;
  try {
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheEntry;
    if (entry.key !== key || cacheKey(entry.request) !== key || typeof entry.reply?.text !== 'string') return null;
    return entry;
  } catch {
    return null;
  }
}

/** Stores a reply under its request's key (atomic write: temp file + rename). */
export function cachePut(request: unknown, reply: BackendReply): string {
  const key = cacheKey(request);
  fs.mkdirSync(cacheDir(), { recursive: true });
  const file = path.join(cacheDir(), `${key}.json`);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const entry: CacheEntry = { key, request, reply, storedAt: new Date().toISOString() };
  fs.writeFileSync(tmp, JSON.stringify(entry));
  fs.renameSync(tmp, file);
  return key;
}
