/**
 * Jest's order (failed first, then longest by the last run's timings, else biggest file first), except that the
 * batches (test/batches/<tier>/batch-NN.test.ts, a few lines each but minutes long) start first, the integration ones
 * (the longest) before the others: on a fresh clone, with no timings cached, Jest would otherwise run them last, by
 * their size, and the run would end on them.
 */
const Sequencer = require('@jest/test-sequencer').default;

const isBatch = (test) => /[\\/]test[\\/]batches[\\/]\w+[\\/]batch-\d+\.test\.ts$/.test(test.path);
const rank = (test) => (/[\\/]integration[\\/]/.test(test.path) ? 0 : 1);

class BatchesFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const batches = sorted.filter(isBatch).sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
    return [...batches, ...sorted.filter((t) => !isBatch(t))];
  }
}

module.exports = BatchesFirstSequencer;
