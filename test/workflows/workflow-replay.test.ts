import * as workflows from '../../workflows';
import { historiesOf, recordedHistories, recordedWorkflowTypes, replayFailures } from '../helpers/workflow-histories';

/**
 * Workflow versioning for every workflow type: the recorded histories of each family replay against the current
 * workflow code (release, promotion and break-glass have their own replay tests beside their workflow tests), and
 * every workflow type exported by workflows/ has at least one recorded history. A change that would break a running
 * workflow fails here; guard it with `patched()`. Re-recording: docs/workflows.md.
 */
const FAMILIES = ['invitation', 'escalation', 'digest', 'heartbeat', 'short', 'image-updates'];

it('has a recorded history for every workflow type exported by workflows/', () => {
  const recorded = recordedWorkflowTypes();
  expect(Object.keys(workflows).filter((type) => !recorded.has(type))).toEqual([]);
});

it.each(FAMILIES)(
  'replays every recorded %s history against the current workflow code',
  async (family) => {
    const { dir } = historiesOf(family);
    expect(recordedHistories(dir).length).toBeGreaterThan(0);
    expect(await replayFailures(dir)).toEqual([]);
  },
  120_000,
);
