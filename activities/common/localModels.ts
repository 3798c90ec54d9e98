/**
 * Local GGUF model files (`--model local:<path-or-name>`, protocol/model.ts): where a spec's file
 * is, its sha256, and which models the models folder holds (`lockin doctor`). The `local:`
 * backend (activities/model/backends/local.ts) runs them; the study manifest records their hash.
 *
 * A name (no '/', no .gguf ending) is `<models folder>/<name>.gguf` (common/paths.ts
 * localModelsDir: LOCKIN_MODELS_DIR, else <LOCKIN_HOME>/models); a path is absolute, or relative
 * to the repository when it has a '/' (as a replay corpus's), or a bare `x.gguf` in the models folder.
 *
 * The sha256 of a 253 MB file takes about a second to compute: it is read from `<file>.sha256`
 * when that file is newer than the model (npm run setup writes it for the test model, from the
 * value the package's assemble() checked), else computed once and kept in
 * `<LOCKIN_HOME>/cache/model-files.json` keyed by path, size and modification time.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { InputError } from './errors';
import { localModelsDir, lockinHome, REPO_ROOT } from './paths';

/** A local model file as a spec names it. */
export interface LocalModelFile {
  /** The name calls and reports use: the file name without `.gguf`. */
  name: string;
  /** Absolute path of the .gguf file. */
  path: string;
  /** Size in bytes. */
  bytes: number;
}

/**
 * The file of a `local:` spec's model part.
 * @param model the part after `local:` (a name or a path).
 * @returns the file's name, absolute path and size.
 * @throws InputError (field "model") naming the path looked at and the fix, when there is no such
 *   file or it is not a GGUF file (its first four bytes are not "GGUF").
 */
export function resolveLocalModel(model: string): LocalModelFile {
  const file = localModelPath(model);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    const fix = model.includes('/') || model.endsWith('.gguf') ? 'give the path of a .gguf file (absolute, or relative to the repository)' : `\`npm run setup\` installs gemma3-270m there; another model: put <name>.gguf in ${localModelsDir()} or give its path`;
    throw new InputError(`local model "${model}": no file at ${file} (${fix})`, undefined, 'model');
  }
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') !== 'GGUF') throw new InputError(`local model "${model}": ${file} is not a GGUF file (it does not start with "GGUF")`, undefined, 'model');
  return { name: path.basename(file).replace(/\.gguf$/i, ''), path: file, bytes: fs.statSync(file).size };
}

/** The path a `local:` model part names (pure but for the environment: see the module doc). */
export function localModelPath(model: string): string {
  if (path.isAbsolute(model)) return model;
  if (model.includes('/')) return path.resolve(REPO_ROOT, model);
  return path.join(localModelsDir(), model.endsWith('.gguf') ? model : `${model}.gguf`);
}

/** The hash cache file: path → {bytes, mtimeMs, sha256}. */
function hashCacheFile(): string {
  return path.join(lockinHome(), 'cache', 'model-files.json');
}

type HashCache = Record<string, { bytes: number; mtimeMs: number; sha256: string }>;

function readHashCache(): HashCache {
  try {
    return JSON.parse(fs.readFileSync(hashCacheFile(), 'utf8')) as HashCache;
  } catch {
    return {};
  }
}

/**
 * The sha256 (hex) of a model file: from its `.sha256` file when newer than the model, from the
 * hash cache when the size and modification time still match, else computed (streamed in 8 MiB
 * blocks) and cached.
 * @throws Error when the file cannot be read.
 */
export function modelFileSha256(file: string): string {
  const st = fs.statSync(file);
  const side = `${file}.sha256`;
  if (fs.existsSync(side) && fs.statSync(side).mtimeMs >= st.mtimeMs) {
    const digest = fs.readFileSync(side, 'utf8').trim().split(/\s+/)[0];
    if (/^[0-9a-f]{64}$/.test(digest)) return digest;
  }
  const cache = readHashCache();
  const hit = cache[file];
  if (hit && hit.bytes === st.size && hit.mtimeMs === st.mtimeMs) return hit.sha256;
  const h = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(8 << 20);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  const sha256 = h.digest('hex');
  cache[file] = { bytes: st.size, mtimeMs: st.mtimeMs, sha256 };
  fs.mkdirSync(path.dirname(hashCacheFile()), { recursive: true });
  const tmp = `${hashCacheFile()}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(cache, null, 2));
  fs.renameSync(tmp, hashCacheFile());
  return sha256;
}

/**
 * The models in the models folder (`lockin doctor`): every `*.gguf`, sorted by name, with its
 * size and its sha256 when known without hashing (a `.sha256` file or the hash cache; else null).
 * Output: [] when the folder does not exist.
 */
export function listLocalModels(): (LocalModelFile & { sha256: string | null })[] {
  const dir = localModelsDir();
  if (!fs.existsSync(dir)) return [];
  const cache = readHashCache();
  return fs
    .readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.gguf'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const st = fs.statSync(file);
      const side = `${file}.sha256`;
      const fromSide = fs.existsSync(side) ? fs.readFileSync(side, 'utf8').trim().split(/\s+/)[0] : '';
      const cached = cache[file]?.bytes === st.size && cache[file]?.mtimeMs === st.mtimeMs ? cache[file].sha256 : null;
      return { name: f.replace(/\.gguf$/i, ''), path: file, bytes: st.size, sha256: /^[0-9a-f]{64}$/.test(fromSide) ? fromSide : cached };
    });
}
