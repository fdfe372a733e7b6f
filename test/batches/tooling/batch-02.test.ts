import { runBatch } from '../run-batch';

runBatch('tooling', 2);
