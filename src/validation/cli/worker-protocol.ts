import type { CliArgs } from '../cli-args';
import type { Source } from './sources';
import type { SourceEvent } from './validate-source';

/** CliArgs as workerData carries them (no Sets). */
export type WorkerArgs = Omit<CliArgs, 'skip' | 'reject'> & { skip: string[]; reject: string[] };

export interface WorkerData {
  args: WorkerArgs;
  base: string;
}

export type ToWorker = { index: number; source: Source };

export type FromWorker =
  { index: number; events: SourceEvent[] } | { index: number; done: true } | { index: number; failure: string };

export function toWorkerArgs(args: CliArgs): WorkerArgs {
  return { ...args, skip: [...args.skip], reject: [...args.reject] };
}

export function fromWorkerArgs(args: WorkerArgs): CliArgs {
  return { ...args, skip: new Set(args.skip), reject: new Set(args.reject) };
}
