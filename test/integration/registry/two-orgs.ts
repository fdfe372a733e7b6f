import type { OrgRole } from '../../../src/iam/principal';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

type Org = Awaited<ReturnType<typeof makeOrg>>;

/**
 * The set-up of the registry and catalog suites: a platform, an HTTP client, the organization under test with members
 * of `roles`, and another organization (an owner) that must see nothing of it. Filled in by beforeAll.
 */
export function twoOrgs(roles: OrgRole[]) {
  const state = {} as { platform: TestPlatform; http: ReturnType<typeof httpClient>; org: Org; other: Org };
  beforeAll(async () => {
    state.platform = await startTestPlatform();
    state.http = httpClient(state.platform.url);
    state.org = await makeOrg(state.platform, roles);
    state.other = await makeOrg(state.platform, ['owner']);
  }, 120_000);
  afterAll(() => state.platform.close());
  return state;
}
