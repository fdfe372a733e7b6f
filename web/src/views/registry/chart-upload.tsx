import { useState } from 'react';
import { Form } from 'react-aria-components';
import { pushChart } from '../../api/oci-push';
import { useSession } from '../../api/session';
import { FileField } from '../../components/file-field';
import { ErrorNote, Submit } from '../../components/form';
import { useAction } from '../../components/use-action';
import { chartMetadataOf } from './chart-archive';

/**
 * Pushes a packaged chart (.tgz) to `<org slug>/charts/<name>` over the registry protocol from the browser, with the
 * signed-in user's token, as `helm push` would; what the registry refuses is shown in its words.
 */
export function ChartUpload() {
  const org = useSession().me?.organization?.slug ?? '';
  const [file, setFile] = useState<File | null>(null);
  const [pushed, setPushed] = useState<string | null>(null);
  const action = useAction([['registry', 'charts']]);
  return (
    <>
      <Form
        aria-label="Push a chart"
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          setPushed(null);
          if (!file) return;
          void action.run(
            async () => {
              const archive = new Uint8Array(await file.arrayBuffer());
              const chart = await chartMetadataOf(archive);
              await pushChart(`${org}/charts/${chart.name}`, chart.version, chart, archive);
              setPushed(`${chart.name} ${chart.version}`);
            },
            () => form.reset(),
          );
        }}
      >
        <FileField
          label="Chart archive (.tgz from helm package)"
          name="chart"
          accept=".tgz,.tar.gz,application/gzip"
          onChange={(files) => setFile(files[0] ?? null)}
        />
        <Submit pending={action.pending}>Push chart</Submit>
      </Form>
      {pushed && (
        <p role="status" className="test-result">
          Pushed {pushed} to oci://{location.host}/{org}/charts.
        </p>
      )}
      <ErrorNote error={action.error} />
    </>
  );
}
