import { gzipSync } from 'node:zlib';
import { chartMetadataOf } from '../../../web/src/views/registry/chart-archive';
import { tarEntry } from '../../helpers/tar';

/** The browser's chart push reads Chart.yaml out of the picked archive (web/src/views/registry/chart-archive.ts). */
describe('chartMetadataOf', () => {
  const bytes = (b: Buffer) => new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

  it('reads name, version and the other top-level fields of a packaged chart', async () => {
    const chartYaml = 'apiVersion: v2\nname: api\nversion: 1.2.3\nappVersion: "9.9"\ndescription: The API tier\n';
    const archive = gzipSync(Buffer.concat([tarEntry('api/Chart.yaml', chartYaml), Buffer.alloc(1024)]));
    expect(await chartMetadataOf(bytes(archive))).toEqual({
      apiVersion: 'v2',
      name: 'api',
      version: '1.2.3',
      appVersion: '9.9',
      description: 'The API tier',
    });
  });

  it('finds Chart.yaml after other entries and ignores nested fields of the same name', async () => {
    const chartYaml =
      'apiVersion: v2\nname: "web"\nversion: \'0.1.0\'\ndependencies:\n  - name: redis\n    version: 1.0.0\n';
    const tar = Buffer.concat([
      tarEntry('pax_global_header', 'Chart.yaml\n', { type: 'g' }),
      tarEntry('web/values.yaml', 'name: not-the-chart\n'),
      tarEntry('web/charts/redis/Chart.yaml', 'name: redis\nversion: 1.0.0\n'),
      tarEntry('web/Chart.yaml', chartYaml),
      Buffer.alloc(1024),
    ]);
    expect(await chartMetadataOf(bytes(gzipSync(tar)))).toEqual({ apiVersion: 'v2', name: 'web', version: '0.1.0' });
  });

  it('refuses what is not a chart archive, in words', async () => {
    await expect(chartMetadataOf(bytes(Buffer.from('not a chart')))).rejects.toThrow('not a gzip archive');
    const noChart = gzipSync(Buffer.concat([tarEntry('web/values.yaml', 'a: 1\n'), Buffer.alloc(1024)]));
    await expect(chartMetadataOf(bytes(noChart))).rejects.toThrow('no <chart>/Chart.yaml');
    const noVersion = gzipSync(Buffer.concat([tarEntry('web/Chart.yaml', 'name: web\n'), Buffer.alloc(1024)]));
    await expect(chartMetadataOf(bytes(noVersion))).rejects.toThrow('web/Chart.yaml has no name or version');
    // A negative size (issue 25's archive) ends the reading instead of looping.
    const negative = gzipSync(
      Buffer.concat([tarEntry('web/Chart.yaml', '', { size: '-0000001000' }), Buffer.alloc(1024)]),
    );
    await expect(chartMetadataOf(bytes(negative))).rejects.toThrow('unreadable size');
  });
});
