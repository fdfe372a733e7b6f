/**
 * The files a full run keeps out of the batches and runs each in its own module registry: those that replay recorded
 * workflow histories (Worker.runReplayHistory, runReplayHistories). Batched after release-replay.test.ts,
 * test/workflows/cluster-heartbeat.test.ts's continue-as-new test hung (180 s, where it takes 1 s), twice; it also hung
 * once on its own in a run under stress-ng, so the replay may not be the cause (the time-skipping test server's
 * continue-as-new is not atomic: temporalio/sdk-java#1537), but a replay last in its own process is the cautious
 * order. Shared by jest.config.js and batch-plan.ts.
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
