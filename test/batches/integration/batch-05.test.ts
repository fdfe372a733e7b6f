import { runBatch } from '../run-batch';

runBatch('integration', 5);
