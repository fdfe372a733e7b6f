import { runBatch } from '../run-batch';

runBatch('integration', 8);
