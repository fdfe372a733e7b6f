import { runBatch } from '../run-batch';

runBatch('workflows', 2);
