import { runBatch } from './run-batch';

runBatch(6);
