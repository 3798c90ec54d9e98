/**
 * The import graph of the repository, read from the sources with the TypeScript compiler's
 * pre-processor (every `import`, `export … from`, `import()` and `require()` with a relative
 * path, type-only ones included), checked against the layers and floors of the README's
 * architecture section:
 * - protocol/ imports only protocol/; workflows/ only workflows/ and protocol/; activities/ never
 *   workflows/, worker/, client/ or infra/;
 * - inside activities/, every folder is on a floor of activities/floors.json and imports only
 *   folders on lower floors;
 * - no import circle among the files of activities/ and protocol/ (a circle of type-only
 *   imports counts: it is still two files that cannot be read one after the other).
 * ESLint checks the same floors file by file (eslint.config.js); this test sees the whole graph,
 * dynamic imports and circles included.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import floorsFile from '../../activities/floors.json';

const ROOT = path.resolve(__dirname, '..', '..');
const LAYERS = ['protocol', 'workflows', 'activities', 'worker', 'client', 'infra', 'bench'] as const;
const FLOORS: string[][] = floorsFile.floors;

/** Every .ts file under the layers, relative to the repository root ("activities/model/gateway.ts"). */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const layer of LAYERS) if (fs.existsSync(path.join(ROOT, layer))) walk(layer);
  return out.sort();
}

/** The repository file a relative specifier names, or null (a package, a .json or .js file). */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (fs.existsSync(path.join(ROOT, candidate))) return candidate;
  return null;
}

/** The import graph: file → the repository files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

const layerOf = (file: string) => file.split('/')[0];
/** "model" for activities/model/…; null outside activities/. */
const folderOf = (file: string) => (file.startsWith('activities/') ? file.split('/')[1] : null);
const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>, keep: (file: string) => boolean): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of (graph.get(v) ?? []).filter(keep)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].filter(keep)) if (!index.has(v)) visit(v);
  return found;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

describe('the import graph', () => {
  test('reads the repository (sanity: the gateway imports the preflight check)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('activities/model/gateway.ts')).toContain('activities/preflight/preflight.ts');
  });

  test('every folder of activities/ with TypeScript is on a floor (activities/floors.json)', () => {
    const folders = new Set([...graph.keys()].map(folderOf).filter((f): f is string => f !== null));
    expect([...folders].filter((f) => floorOf(f) < 0)).toEqual([]);
    expect(FLOORS.flat().filter((f) => !folders.has(f))).toEqual([]);
  });

  test('protocol/ imports only protocol/, workflows/ only workflows/ and protocol/', () => {
    const allowed: Record<string, string[]> = { protocol: ['protocol'], workflows: ['workflows', 'protocol'] };
    const bad = edges.filter((e) => allowed[layerOf(e.from)] && !allowed[layerOf(e.from)].includes(layerOf(e.to)));
    expect(bad.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test('activities/ imports no layer above it (workflows/, worker/, client/, infra/, bench/)', () => {
    const bad = edges.filter((e) => layerOf(e.from) === 'activities' && !['activities', 'protocol'].includes(layerOf(e.to)));
    expect(bad.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test('inside activities/, every import runs down a floor (none sideways, none up)', () => {
    const bad = edges.filter((e) => {
      const a = folderOf(e.from);
      const b = folderOf(e.to);
      return a !== null && b !== null && a !== b && floorOf(b) >= floorOf(a);
    });
    expect(bad.map((e) => `${e.from} (floor ${floorOf(folderOf(e.from)!)}) -> ${e.to} (floor ${floorOf(folderOf(e.to)!)})`)).toEqual([]);
  });

  test('no import circle among the files of activities/ and protocol/', () => {
    expect(circles(graph, (f) => f.startsWith('activities/') || f.startsWith('protocol/'))).toEqual([]);
  });

  test('the circle finder finds a circle of two, one of three and a file importing itself', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['a']],
    ]);
    expect(circles(g, () => true).sort()).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
  });
});
