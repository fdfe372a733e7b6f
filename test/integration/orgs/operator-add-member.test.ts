import { addMember } from '../../../src/admin/operator-commands';
import { makeOrg, makeUser, operatorDeps } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/** `npm run admin -- add-member`: an existing user joins an organization with a role, audited in the same change. */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe('operator add-member', () => {
  it('adds the membership and its member.add audit entry; a second add or a bad role changes nothing', async () => {
    const { org } = await makeOrg(platform);
    const { user } = await makeUser(platform);
    const deps = operatorDeps(platform);
    const added = await addMember(deps, { org: org.slug, email: user.email.toUpperCase(), role: 'member' });
    expect(added).toEqual({
      organization: { id: org.id, slug: org.slug },
      userId: user.id,
      email: user.email,
      role: 'member',
    });
    const entries = () =>
      platform.services
        .db('audit_log')
        .where({ organization_id: org.id, action: 'member.add', resource_id: user.id })
        .select('actor', 'details');
    expect(await entries()).toEqual([{ actor: 'operator-cli', details: { email: user.email, role: 'member' } }]);

    await expect(addMember(deps, { org: org.slug, email: user.email, role: 'admin' })).rejects.toThrow(
      'the user is already a member of this organization',
    );
    await expect(addMember(deps, { org: org.slug, email: user.email, role: 'boss' })).rejects.toThrow(
      'role must be one of owner, admin, member, viewer',
    );
    expect(await entries()).toHaveLength(1);
    const membership = await platform.services
      .db('memberships')
      .where({ organization_id: org.id, user_id: user.id })
      .first('role');
    expect(membership.role).toBe('member');
  });
});
