import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform();
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

describe('POST /api/v2/diagnostics/proof-runs', () => {
  it('runs API → Temporal → worker → activity → PostgreSQL and lands an audit entry in the organization', async () => {
    const { org, members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    const started = await http.post<{ id: string; workflowId: string }>('/api/v2/diagnostics/proof-runs', { token });
    expect(started.status).toBe(202);
    expect(started.body.workflowId).toBe(`proof-${org.id}-${started.body.id}`);

    const done = await eventually(
      async () => {
        const res = await http.get<{ status: string; result: { stepsCompleted: number; auditEntryId: string } }>(
          `/api/v2/diagnostics/proof-runs/${started.body.id}`,
          { token },
        );
        return res.body.status === 'COMPLETED' ? res.body : null;
      },
      30_000,
      'proof workflow completion',
    );
    expect(done.result.stepsCompleted).toBe(2);

    const audit = await http.get<{ items: Array<{ id: string; workflowId: string }> }>(
      '/api/v2/audit-logs?action=system.proof.complete',
      { token },
    );
    expect(audit.body.items).toEqual([
      expect.objectContaining({ id: done.result.auditEntryId, workflowId: started.body.workflowId }),
    ]);

    const metrics = await http.get('/metrics');
    expect(metrics.text).toMatch(/temporal_workflow_starts_total\{workflow="proofWorkflow"\} [1-9]/);

    const description = await platform.services.temporal.workflow.getHandle(started.body.workflowId).describe();
    expect(description.searchAttributes.OrganizationId).toEqual([org.id]);
  });

  it("answers 404 for another organization's proof run", async () => {
    const a = await makeOrg(platform);
    const b = await makeOrg(platform);
    const started = await http.post<{ id: string }>('/api/v2/diagnostics/proof-runs', {
      token: a.members.owner!.token,
    });
    const res = await http.get(`/api/v2/diagnostics/proof-runs/${started.body.id}`, { token: b.members.owner!.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'proof run not found' });
  });
});
