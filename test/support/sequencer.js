// The order jest starts the test files in (jest.config.js testSequencer). With the durations of
// an earlier run in jest's cache, jest's own order (longest first) is kept. Without them (a fresh
// clone: CI) jest orders by file size, which starts small pure tests first and the long Spark
// tests late and together; this orders by the durations below instead (CI-equivalent runs on this
// 2-core machine, 2026-12-04; only the order depends on them), longest first, files not listed
// after them in jest's order. And while the SF=0.01 test database is not built yet, only one file
// that needs it (ensureTestDatabase) comes before the longest file that needs none, so the second
// worker runs that one while the first builds the database (about two minutes here) instead of
// both waiting on the same build.
const fs = require('fs');
const path = require('path');
const Sequencer = require('@jest/test-sequencer').default;

/** Seconds the longest files took in CI-equivalent runs on 2026-12-04 (without the database build). */
const TYPICAL_SECONDS = {
  'e2e/study.test.ts': 200,
  'execution/warm.test.ts': 185,
  'mutation/generate.test.ts': 150,
  'execution/execution.test.ts': 115,
  'mutation/suites.test.ts': 100,
  'workflows/crash.test.ts': 65,
  'obligations/check.test.ts': 60,
  'data/references.test.ts': 50,
  'data/database.test.ts': 50,
  'infra/serverRestart.test.ts': 45,
  'execution/hostileExecution.test.ts': 45,
  'execution/referenceVisibility.test.ts': 45,
  'workflows/scaleOut.test.ts': 45,
  'workflows/longSteps.test.ts': 40,
  'workflows/budgets.test.ts': 30,
};

/** Whether test/support/database.ts has finished the SF=0.01 database (its status file is written last). */
function testDatabaseReady() {
  const home = process.env.LOCKIN_TEST_DATA_HOME ?? process.env.LOCKIN_HOME ?? path.join(__dirname, '..', '..', '.lockin');
  return fs.existsSync(path.join(path.resolve(home), 'data', 'references', 'sf0.01', 'test-status.json'));
}

class LockinSequencer extends Sequencer {
  sort(tests) {
    const jestOrder = super.sort(tests);
    // Durations from an earlier run: jest's order is already longest first.
    if (jestOrder.some((t) => t.duration != null)) return jestOrder;
    const known = (t) => TYPICAL_SECONDS[path.relative(path.join(__dirname, '..'), t.path).split(path.sep).join('/')] ?? 0;
    const sorted = [...jestOrder].sort((a, b) => known(b) - known(a)); // stable: unlisted files keep jest's order
    if (testDatabaseReady()) return sorted;
    const needsDb = (t) => {
      try {
        return fs.readFileSync(t.path, 'utf8').includes('ensureTestDatabase(');
      } catch {
        return false;
      }
    };
    const first = sorted.find(needsDb);
    const other = sorted.find((t) => !needsDb(t));
    if (!first || !other) return sorted;
    return [first, other, ...sorted.filter((t) => t !== first && t !== other)];
  }
}

module.exports = LockinSequencer;
