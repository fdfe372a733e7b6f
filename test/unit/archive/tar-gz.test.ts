import { gzipSync } from 'node:zlib';
import { filesOfTarGz, type ArchiveLimits } from '../../../src/archive/tar-gz';
import { Unprocessable } from '../../../src/errors';
import { tarEntry } from '../../helpers/tar';

const limits: ArchiveLimits = { maxTotalBytes: 1024 * 1024, maxEntryBytes: 64 * 1024, maxEntries: 10 };

describe('tar.gz reader', () => {
  it('lists the regular files of a gzipped tar, skipping directories', async () => {
    const tar = Buffer.concat([
      tarEntry('web/', '', { type: '5' }),
      tarEntry('web/Chart.yaml', 'name: web\n'),
      tarEntry('./web/values.yaml', 'x'.repeat(700)),
      Buffer.alloc(1024),
    ]);
    const files = await filesOfTarGz(gzipSync(tar), limits);
    expect([...files.keys()]).toEqual(['web/Chart.yaml', 'web/values.yaml']);
    expect(files.get('web/values.yaml')!.length).toBe(700);
  });

  it('refuses an archive that unpacks beyond the total budget', async () => {
    await expect(filesOfTarGz(gzipSync(Buffer.alloc(2 * 1024 * 1024)), limits)).rejects.toThrow(Unprocessable);
  });

  it('refuses an entry over the per-file budget and archives over the entry count', async () => {
    const big = Buffer.concat([tarEntry('web/values.yaml', 'x'.repeat(65 * 1024)), Buffer.alloc(1024)]);
    await expect(filesOfTarGz(gzipSync(big), limits)).rejects.toThrow(/larger than/);
    const many = Buffer.concat([...Array.from({ length: 11 }, (_, i) => tarEntry(`f${i}`, 'x')), Buffer.alloc(1024)]);
    await expect(filesOfTarGz(gzipSync(many), limits)).rejects.toThrow(/more than 10 entries/);
  });

  // Issue 25 (High): a header whose size field is negative made the hand-written reader loop forever.
  it('ends with 422 on a negative size field, a bad checksum, truncation or bytes that are not gzip', async () => {
    const negative = Buffer.concat([tarEntry('c/Chart.yaml', '', { size: '-0000001000' }), Buffer.alloc(1024)]);
    await expect(filesOfTarGz(gzipSync(negative), limits)).rejects.toThrow(Unprocessable);
    const badSum = tarEntry('c/Chart.yaml', 'name: c\n');
    badSum.write('0000000', 148);
    await expect(filesOfTarGz(gzipSync(badSum), limits)).rejects.toThrow(Unprocessable);
    const truncated = gzipSync(tarEntry('c/Chart.yaml', 'x'.repeat(2000)).subarray(0, 900));
    await expect(filesOfTarGz(truncated, limits)).rejects.toThrow(Unprocessable);
    await expect(filesOfTarGz(Buffer.from('not gzip'), limits)).rejects.toThrow(Unprocessable);
  });
});
