/**
 * The model-call cache (README "Inspecting and resuming"): key = sha256 of the full
 * request (backend, model, parameters, headers, system, messages) and of its *draw* (which
 * sample and replicate the reply is; see `Draw`) in canonical JSON; entries at
 * `<LOCKIN_HOME>/cache/model/<key>.json`. An entry is verified on load (the hash of its stored
 * request and draw must equal its key) so a corrupted or hand-edited entry is never served. Only
 * successful, non-refused replies are stored (the gateway decides; see gateway.ts).
 *
 * The first draw of a request (sample 1, no replicate) is keyed by the request alone, exactly as
 * before samples existed, so the entries of older studies are still found; every other draw adds
 * `{ sample, replicate }` to the key, so a second sample or a replicate of the same prompt is a
 * new backend request, and a resumed study finds its own draw again.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome } from '../common/paths';
import { canonicalJson } from '../common/hash';
import type { BackendReply } from './backends/types';

export { canonicalJson };

/**
 * Which independent draw of a request a reply is: `sample` 1-based (absent = 1), `replicate` the
 * targeted-replication label (absent = the primary run).
 */
export interface Draw {
  sample?: number;
  replicate?: string;
}

/** Is this the first draw (sample 1 of the primary run), keyed by the request alone? Pure. */
export function isFirstDraw(draw: Draw | undefined | null): boolean {
  return !draw || ((draw.sample ?? 1) === 1 && !draw.replicate);
}

/**
 * The cache key of a request and its draw: sha256 (hex) of the canonical JSON of the request
 * (first draw) or of `{ request, draw: { sample, replicate } }` (any other draw). Pure.
 * @param request the request as sent (BackendRequest); @param draw absent = the first draw.
 */
export function cacheKey(request: unknown, draw?: Draw | null): string {
  const material = isFirstDraw(draw) ? request : { request, draw: { sample: draw!.sample ?? 1, replicate: draw!.replicate ?? null } };
  return crypto.createHash('sha256').update(canonicalJson(material)).digest('hex');
}

export function cacheDir(): string {
  return path.join(lockinHome(), 'cache', 'model');
}

export interface CacheEntry {
  key: string;
  /** The request as sent. */
  request: unknown;
  /** The draw (absent in entries of the first draw and in entries written before samples). */
  draw?: Draw;
  reply: BackendReply;
  storedAt: string;
}

/**
 * Returns the cached reply for `key`, or null when absent or when the entry fails verification
 * (unparseable, or the stored request and draw do not hash to the key; such an entry is ignored).
 */
export function cacheGet(key: string): CacheEntry | null {
  const file = path.join(cacheDir(), `${key}.json`);
  if (!fs.existsSync(file)) return null;
  try {
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheEntry;
    if (entry.key !== key || cacheKey(entry.request, entry.draw) !== key || typeof entry.reply?.text !== 'string') return null;
    return entry;
  } catch {
    return null;
  }
}

/** Stores a reply under the key of its request and draw (atomic write: temp file + rename). @returns the key. */
export function cachePut(request: unknown, reply: BackendReply, draw?: Draw | null): string {
  const key = cacheKey(request, draw);
  fs.mkdirSync(cacheDir(), { recursive: true });
  const file = path.join(cacheDir(), `${key}.json`);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const entry: CacheEntry = { key, request, ...(isFirstDraw(draw) ? {} : { draw: { sample: draw!.sample ?? 1, ...(draw!.replicate ? { replicate: draw!.replicate } : {}) } }), reply, storedAt: new Date().toISOString() };
  fs.writeFileSync(tmp, JSON.stringify(entry));
  fs.renameSync(tmp, file);
  return key;
}
