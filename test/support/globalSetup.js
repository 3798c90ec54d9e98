// Runs once before the jest suites: make sure `npm run setup` has built what tests need.
const fs = require('fs');
const path = require('path');
module.exports = async () => {
  const root = path.resolve(__dirname, '..', '..');
  for (const p of ['.venv/bin/python', 'node_modules/.package-lock.json']) {
    if (!fs.existsSync(path.join(root, p))) throw new Error(`${p} missing: run \`npm run setup\` (npm test runs it first)`);
  }
};
