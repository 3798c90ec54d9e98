// The order jest starts the test files in (jest.config.js testSequencer). Jest's own order (the
// durations of the last run when it has them, else file size) is kept, except while the SF=0.01
// test database is not built yet (a fresh clone: CI): then the first file that needs it
// (ensureTestDatabase) starts first, and the largest files that need no database follow it, so
// the second worker runs them while the first builds the database (about two minutes here),
// instead of both workers waiting on the same build. In CI that wait cost about 115 s of the
// 15 minutes `npm test` is allowed.
const fs = require('fs');
const path = require('path');
const Sequencer = require('@jest/test-sequencer').default;

/** Whether test/support/database.ts has finished the SF=0.01 database (its status file is written last). */
function testDatabaseReady() {
  const home = process.env.LOCKIN_TEST_DATA_HOME ?? process.env.LOCKIN_HOME ?? path.join(__dirname, '..', '..', '.lockin');
  return fs.existsSync(path.join(path.resolve(home), 'data', 'references', 'sf0.01', 'test-status.json'));
}

/** Files that need no database, started right after the one that builds it. */
const WHILE_BUILDING = 4;

class LockinSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (testDatabaseReady()) return sorted;
    const needsDb = (t) => {
      try {
        return fs.readFileSync(t.path, 'utf8').includes('ensureTestDatabase(');
      } catch {
        return false;
      }
    };
    const first = sorted.find(needsDb);
    if (!first) return sorted;
    const meanwhile = sorted.filter((t) => !needsDb(t)).slice(0, WHILE_BUILDING);
    return [first, ...meanwhile, ...sorted.filter((t) => t !== first && !meanwhile.includes(t))];
  }
}

module.exports = LockinSequencer;
