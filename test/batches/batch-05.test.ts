import { runBatch } from './run-batch';

runBatch(5);
