/**
 * Jest's order (failed first, then longest by the last run's timings, else biggest file first), except that the
 * integration batches (test/batches/batch-NN.test.ts, a few lines each but minutes long) start first: on a fresh clone,
 * with no timings cached, Jest would otherwise run them last, by their size, and the run would end on them.
 */
const Sequencer = require('@jest/test-sequencer').default;

const isBatch = (test) => /[\\/]test[\\/]batches[\\/]batch-\d+\.test\.ts$/.test(test.path);

class BatchesFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const batches = sorted.filter(isBatch).sort((a, b) => a.path.localeCompare(b.path));
    return [...batches, ...sorted.filter((t) => !isBatch(t))];
  }
}

module.exports = BatchesFirstSequencer;
