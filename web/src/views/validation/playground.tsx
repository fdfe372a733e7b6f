import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote } from '../../components/form';
import { useAction } from '../../components/use-action';
import { highlightedLines } from './highlight';
import type { ValidationResponse, ValidationResult } from './models';

export function useK8sVersions() {
  return useQuery({
    queryKey: ['k8s', 'versions'],
    queryFn: () => ok(api.GET('/api/v2/k8s/versions')),
  });
}

function MarkedText({ text, results }: { text: string; results: ValidationResult[] }) {
  const marks = highlightedLines(text, results);
  return (
    <pre className="marked-yaml" aria-label="Manifests with the results' lines marked">
      {text.split('\n').map((line, i) => {
        const hits = marks.get(i);
        return hits ? (
          <mark
            key={i}
            className={hits.some((h) => h.severity === 'error') ? 'bad' : 'warn'}
            title={hits.map((h) => h.message).join('\n')}
          >
            {line}
            {'\n'}
          </mark>
        ) : (
          <span key={i}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

function Grouped({ answer }: { answer: ValidationResponse }) {
  const groups = new Map<string, ValidationResult[]>();
  for (const r of answer.results) groups.set(r.resource, [...(groups.get(r.resource) ?? []), r]);
  return (
    <div role="status" className="stack">
      <p>
        <strong>{answer.valid ? 'Valid' : 'Invalid'}</strong>: {answer.summary.errors} errors, {answer.summary.warnings}{' '}
        warnings, {answer.summary.info} notes.
      </p>
      {[...groups].map(([resource, results]) => (
        <section key={resource} aria-label={`Results for ${resource}`} className="card">
          <h3>{resource}</h3>
          <ul>
            {results.map((r, i) => (
              <li key={i}>
                <span className={`badge ${r.severity === 'error' ? 'bad' : 'busy'}`}>{r.severity}</span>{' '}
                {r.path && <code>{r.path}</code>} {r.message}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Paste or upload YAML, pick a Kubernetes version, see the results by resource with their lines marked. */
export function Playground() {
  const versions = useK8sVersions();
  const [text, setText] = useState('');
  const [version, setVersion] = useState('');
  const [answer, setAnswer] = useState<{ text: string; response: ValidationResponse } | null>(null);
  const action = useAction();
  const list = versions.data?.versions ?? [];
  return (
    <section aria-labelledby="playground-heading">
      <h2 id="playground-heading">Validation playground</h2>
      <div className="field">
        <label htmlFor="manifests">Manifests (YAML, documents separated by ---)</label>
        <textarea id="manifests" rows={14} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </div>
      <div className="row">
        <FileTrigger
          acceptedFileTypes={['.yaml', '.yml', 'application/yaml', 'text/yaml']}
          onSelect={(files) => void files?.[0]?.text().then(setText)}
        >
          <Button className="button">Upload a YAML file</Button>
        </FileTrigger>
        <Choice
          label="Kubernetes version"
          name="version"
          value={version}
          any="Newest"
          onChange={setVersion}
          options={optionsOf(list)}
        />
        <Button
          className="button primary"
          isDisabled={action.pending || text.trim() === ''}
          onPress={() =>
            void action.run(async () => {
              const body = { yaml: text, ...(version ? { version } : {}) };
              setAnswer({ text, response: await ok(api.POST('/api/v2/k8s/validate', { body })) });
            })
          }
        >
          Validate
        </Button>
      </div>
      <ErrorNote error={action.error} />
      {answer && (
        <div className="split">
          <Grouped answer={answer.response} />
          <MarkedText text={answer.text} results={answer.response.results} />
        </div>
      )}
    </section>
  );
}
