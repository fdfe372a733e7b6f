import { messageOf } from '../../../src/notifications/message';

const message = (data: Record<string, unknown>) =>
  messageOf({
    event: 'release.create',
    eventId: '00000000-0000-4000-8000-000000000001',
    organizationId: '00000000-0000-4000-8000-000000000002',
    projectId: null,
    occurredAt: '2026-11-25T16:00:00.000Z',
    data,
  });

describe('inbox and notification titles name things (issue 32)', () => {
  it('a release reads by its title and target, its id beside', () => {
    const releaseId = '5f0c3a52-0d3e-4a7c-9a53-6f1b2c3d4e5f';
    const data = { releaseId, tenant: 'acme', environment: 'dev', title: 'web 1.1.0', tenantId: 'x' };
    expect(message(data).title).toBe(`release.create: web 1.1.0 (acme/dev, release ${releaseId})`);
  });

  it('falls back to the name or the project, and to the id alone', () => {
    expect(message({ project: 'shop' }).title).toBe('release.create: shop');
    expect(message({ releaseId: 'r1' }).title).toBe('release.create: release r1');
    expect(message({}).title).toBe('release.create');
  });
});
