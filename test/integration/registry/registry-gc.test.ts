import { scaled } from '../../helpers/time-scale';
import { Readable } from 'node:stream';
import { lockBlob, linkBlob } from '../../../src/registry/registry-repository';
import { sha } from './oci-layout';
import { artifactManifest, ociClient } from './oci-protocol';
import { twoOrgs } from './two-orgs';

const s = twoOrgs(['owner']);
const owner = () => ociClient(s.platform.url, s.org.members.owner!.token);

/** Polls until `check` holds (no sleeps standing in for a wait), failing after the deadline. */
async function until(check: () => Promise<boolean>, what: string, deadlineMs = 10_000) {
  const end = Date.now() + scaled(deadlineMs);
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('registry-gc while pushes run', () => {
  it('leaves a chunked push in progress alone, and the push completes, is referenced and pulls whole', async () => {
    const repo = `${s.org.org.slug}/busy`;
    const data = Buffer.from('first half|second half');
    const start = await owner().call('POST', `/v2/${repo}/blobs/uploads/`);
    const first = await owner().call('PATCH', start.headers.get('location')!, data.subarray(0, 11), {
      'Content-Range': '0-10',
    });
    expect(first.status).toBe(202);

    const gc = await s.platform.services.registry.collectGarbage(0);
    expect(gc.uploadsExpired).toBe(0);

    const location = first.headers.get('location')!;
    const second = await owner().call('PATCH', location, data.subarray(11), {
      'Content-Range': `11-${data.length - 1}`,
    });
    expect(second.status).toBe(202);
    expect((await owner().call('PUT', `${location}?digest=${sha(data)}`)).status).toBe(201);
    expect((await owner().pushBlob(repo, '{}')).status).toBe(201);
    const manifest = await owner().pushManifest(
      repo,
      'v1',
      artifactManifest(data.toString(), 'application/vnd.acme.busy'),
    );
    expect(manifest.status).toBe(201);
    expect((await s.platform.services.registry.collectGarbage(0)).blobsRemoved).toBe(0);
    expect((await owner().call('GET', `/v2/${repo}/blobs/${sha(data)}`)).bytes.toString()).toBe(data.toString());
  });

  it('waits for a push between storing a blob and linking it (the blob lock) instead of removing it', async () => {
    const { db, registry } = s.platform.services;
    const repo = 'racing';
    expect((await owner().pushBlob(`${s.org.org.slug}/${repo}`, 'creates the repository')).status).toBe(201);
    const repository = (await registry.findRepository(s.org.org.id, repo))!;
    const content = Buffer.from('committed, not linked yet');
    const digest = sha(content);

    // A push at its most fragile point: the blob is in the store, its link not yet committed.
    const push = await db.transaction();
    await lockBlob(push, digest, 'shared');
    const upload = await registry.blobs.startUpload();
    await registry.blobs.appendUpload(upload, Readable.from([content]), 1024);
    expect(await registry.blobs.commitUpload(upload, digest, digest)).toBe(content.length);

    const gc = registry.collectGarbage(0);
    const waiting = async () =>
      Number(
        (
          (await db('pg_locks').where({ locktype: 'advisory', granted: false }).count('* as n').first()) as {
            n: string;
          }
        ).n,
      ) > 0;
    await until(waiting, 'the collector to wait on the blob lock');
    await linkBlob(push, repository.id, digest, content.length);
    await push.commit();

    expect((await gc).blobsRemoved).toBe(0);
    expect(await registry.blobSize(repository, digest)).toBe(content.length);
  });
});
