/**
 * Where a workflow's time goes, read from its history (every run of it): per activity type, the time it waited in its
 * task queue (scheduled -> started) and ran (started -> completed); the workflow tasks (scheduled -> completed); and,
 * up to a chosen activity's first completion (the commit), the time spent in activities against the rest (scheduling,
 * workflow tasks, queues); and from a signal to the next completion of that activity (a webhook's update to its
 * commit). Local activities (from their markers) count from the start of their workflow task or the previous one's end.
 * The release and webhook benches print it beside their ratios.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { localActivityMarker } from '../src/temporal/local-activity-marker';
import { reverseHistoryReader, type HistoryEvent, type HistoryPosition } from '../src/temporal/history-reader';
import { line, percentile } from './validate/stats';

const EventType = temporal.api.enums.v1.EventType;

const msOf = (event: HistoryEvent) =>
  Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;

/** Every event of the workflow (all runs), oldest first. */
async function historyOf(client: Client, workflowId: string): Promise<HistoryEvent[]> {
  const runId = (await client.workflow.getHandle(workflowId).describe()).runId;
  const read = reverseHistoryReader(client, workflowId, 1_000);
  const events: HistoryEvent[] = [];
  for (let at: HistoryPosition | null = { runId, token: null }; at;) {
    const page = await read(at);
    events.push(...page.events);
    at = page.next;
  }
  return events.reverse();
}

/** Durations (ms) by step name, over many workflows. */
export class StepTimes {
  private readonly steps = new Map<string, number[]>();

  add(step: string, ms: number): void {
    const list = this.steps.get(step) ?? [];
    list.push(ms);
    this.steps.set(step, list);
  }

  /** Adds the steps of one workflow's history; `until` names the activity whose (first) completion ends its window. */
  async addWorkflow(client: Client, workflowId: string, until: string): Promise<void> {
    const events = await historyOf(client, workflowId);
    const scheduled = new Map<string, { name: string; at: number }>();
    const started = new Map<string, number>();
    const start = events[0] ? msOf(events[0]) : 0;
    let activities = 0;
    let ended = false;
    /** The first signal not yet followed by the `until` activity's completion (a webhook's image update). */
    let signalled: number | null = null;
    /** When the running workflow task's next local activity started: the task's start, then the last one's end. */
    let localFrom = start;
    /** A step that ran from `from` to `at`: its time, and the windows it ends. */
    const completed = (name: string, from: number, at: number) => {
      this.add(`${name}: ran`, at - from);
      const ends = name.replace(/ \(local\)$/, '') === until;
      if (ends && signalled !== null) {
        this.add(`first waiting signal -> ${until} done`, at - signalled);
        signalled = null;
      }
      if (name === 'workflow task' || ended) return;
      activities += at - from;
      if (ends) {
        ended = true;
        this.add(`start -> ${until} done`, at - start);
        this.add(`  of which in activities`, activities);
        this.add(`  of which scheduling, queues, workflow tasks`, at - start - activities);
      }
    };
    for (const event of events) {
      const at = msOf(event);
      const id = String(event.eventId);
      switch (event.eventType) {
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
          signalled ??= at;
          break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
          scheduled.set(id, { name: event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?', at });
          break;
        case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
          scheduled.set(id, { name: 'workflow task', at });
          break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED: {
          const attrs =
            event.activityTaskStartedEventAttributes ?? event.workflowTaskStartedEventAttributes ?? undefined;
          const of = scheduled.get(String(attrs?.scheduledEventId));
          if (of) {
            if (of.name === 'workflow task') localFrom = at;
            started.set(String(attrs?.scheduledEventId), at);
            this.add(`${of.name}: queued`, at - of.at);
          }
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED: {
          const attrs =
            event.activityTaskCompletedEventAttributes ?? event.workflowTaskCompletedEventAttributes ?? undefined;
          const key = String(attrs?.scheduledEventId);
          const of = scheduled.get(key);
          const from = started.get(key);
          if (of && from !== undefined) completed(of.name, from, at);
          break;
        }
        case EventType.EVENT_TYPE_MARKER_RECORDED: {
          // Local activities run one after another inside the workflow task: each from the previous one's end.
          const local = localActivityMarker(event);
          if (local?.completedMs == null) break;
          completed(`${local.activityType} (local)`, Math.min(localFrom, local.completedMs), local.completedMs);
          localFrom = local.completedMs;
          break;
        }
        default:
          break;
      }
    }
  }

  /** One line per step: count, p50, p95. */
  print(title: string): void {
    line(title);
    for (const [step, ms] of this.steps) {
      const sorted = [...ms].sort((a, b) => a - b);
      const p = (q: number) => percentile(sorted, q).toFixed(0).padStart(5);
      line(`  ${step.padEnd(52)} n ${String(ms.length).padStart(4)}   p50 ${p(50)} ms   p95 ${p(95)} ms`);
    }
  }
}
