/**
 * The files a full run keeps out of the batches and runs each in its own module registry: those that replay recorded
 * workflow histories (Worker.runReplayHistory, runReplayHistories). A live worker made later in the same process hung in
 * continue-as-new (test/workflows/cluster-heartbeat.test.ts after release-replay.test.ts: 180 s, where it takes 1 s),
 * so a replay must be the last thing its process does with workflows. Shared by jest.config.js and batch-plan.ts.
 */
const fs = require('node:fs');
const path = require('node:path');

const REPLAYS = /\b(replayFailures|runReplayHistory|runReplayHistories)\(/;

/** The test files under `folders` (relative to `root`), sorted, as paths relative to `root`. */
function testFiles(root, folders) {
  return folders
    .flatMap((folder) =>
      fs
        .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.join(folder, f)),
    )
    .sort();
}

function runsAlone(root, file) {
  return REPLAYS.test(fs.readFileSync(path.join(root, file), 'utf8'));
}

module.exports = { testFiles, runsAlone };
