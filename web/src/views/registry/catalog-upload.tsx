import { useState } from 'react';
import { Form } from 'react-aria-components';
import { ApiError, api } from '../../api/client';
import type { RequestSchema } from '../../api/request-schemas';
import { Choice, optionsOf } from '../../components/choice';
import { FileField } from '../../components/file-field';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';
import { useK8sVersions } from '../validation/playground';
import type { CatalogKind } from './catalog-list';

interface Refusal {
  error?: string;
  validation?: { results: { file: string; severity: string; resource: string; path: string; message: string }[] };
}

type Results = NonNullable<Refusal['validation']>['results'];

type UploadBody = RequestSchema<'catalog-upload'>;

function send(kind: CatalogKind, body: UploadBody) {
  return kind === 'kustomize-bases'
    ? api.POST('/api/v2/org-kustomize-bases', { body })
    : api.POST('/api/v2/org-manifest-bundles', { body });
}

/** Uploads the picked files as one version; a refusal keeps the validation's results to show them. */
async function upload(kind: CatalogKind, body: UploadBody, onResults: (r: Results) => void) {
  const { response, error } = await send(kind, body);
  if (response.ok) return;
  const refusal = error as Refusal | undefined;
  onResults(refusal?.validation?.results.filter((r) => r.severity === 'error') ?? []);
  throw new ApiError(response.status, refusal?.error ?? `${response.status} ${response.statusText}`);
}

/**
 * Uploads a kustomize base or a manifest bundle version from files picked in the browser (each file by its name):
 * the server validates it first, and a refusal lists the results that stopped it.
 */
export function CatalogUpload({ kind, noun }: { kind: CatalogKind; noun: string }) {
  const [files, setFiles] = useState<File[]>([]);
  const [results, setResults] = useState<Results>([]);
  const versions = useK8sVersions();
  const action = useAction([['registry', kind]]);
  return (
    <>
      <Form
        aria-label={`Upload a ${noun}`}
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const v = formValues(form);
          setResults([]);
          void action.run(
            async () => {
              const contents = Object.fromEntries(await Promise.all(files.map(async (f) => [f.name, await f.text()])));
              await upload(
                kind,
                {
                  name: v.name ?? '',
                  version: v.version ?? '',
                  ...(v.kubernetesVersion
                    ? { kubernetesVersion: v.kubernetesVersion as UploadBody['kubernetesVersion'] }
                    : {}),
                  files: contents,
                },
                setResults,
              );
            },
            () => form.reset(),
          );
        }}
      >
        <Field name="name" label={`${noun[0]!.toUpperCase()}${noun.slice(1)} name`} isRequired />
        <Field name="version" label="Version" isRequired />
        <Choice
          name="kubernetesVersion"
          label="Validate against Kubernetes"
          any="Default"
          options={optionsOf([...(versions.data?.versions ?? [])].reverse())}
        />
        <FileField label="Files" name="files" multiple accept=".yaml,.yml,.json" onChange={setFiles} />
        <Submit pending={action.pending}>Upload</Submit>
      </Form>
      <ErrorNote error={action.error} />
      {results.length > 0 && (
        <ul aria-label="Why it was refused">
          {results.map((r, i) => (
            <li key={i}>
              <code>{r.file}</code> {r.resource} {r.path && <code>{r.path}</code>} {r.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
