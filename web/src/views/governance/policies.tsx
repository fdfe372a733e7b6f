import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ProjectChoice } from '../../components/project-choice';
import { ErrorNote } from '../../components/form';
import { useAction } from '../../components/use-action';
import type { PolicyEvaluation } from './models';
import { ApprovalPolicies, ManifestPolicies } from './policy-lists';

function Evaluation({ result }: { result: PolicyEvaluation }) {
  const failed = result.results.flatMap((p) =>
    p.results.filter((r) => !r.passed).flatMap((r) => r.violations.map((v) => ({ policy: p.name, rule: r, v }))),
  );
  return (
    <div role="status">
      <p>
        <strong>{result.blocked ? 'Blocked' : 'Passes'}</strong>: {result.results.length} policies, {failed.length}{' '}
        violations.
      </p>
      <ul>
        {failed.map((f, i) => (
          <li key={i}>
            {f.policy} / {f.rule.ruleId} ({f.rule.mode}): {f.v.kind}/{f.v.name} <code>{f.v.path}</code> {f.v.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A project's policies and approval policies, and an evaluate view over pasted manifests (nothing committed). */
export function Policies() {
  const [project, setProject] = useState('');
  const [text, setText] = useState('');
  const [result, setResult] = useState<PolicyEvaluation | null>(null);
  const query = { params: { query: { project } } };
  const policies = useQuery({
    queryKey: ['governance', 'policies', project],
    enabled: project !== '',
    queryFn: () => ok(api.GET('/api/v2/policies', query)),
  });
  const approvals = useQuery({
    queryKey: ['governance', 'approval-policies', project],
    enabled: project !== '',
    queryFn: () => ok(api.GET('/api/v2/approval-policies', query)),
  });
  const evaluate = useAction();
  return (
    <section aria-labelledby="policies-heading">
      <h2 id="policies-heading">Policies</h2>
      <ProjectChoice name="policy-project" value={project} onChange={setProject} />
      {project && (
        <>
          <ManifestPolicies project={project} query={policies} />
          <h3>Approval policies</h3>
          <ApprovalPolicies project={project} query={approvals} />
          <h3>Evaluate</h3>
          <div className="field">
            <label htmlFor="evaluate-yaml">Manifests to evaluate (YAML)</label>
            <textarea id="evaluate-yaml" rows={8} value={text} onChange={(e) => setText(e.target.value)} />
          </div>
          <Button
            className="button"
            isDisabled={text.trim() === ''}
            onPress={() =>
              void evaluate.run(async () =>
                setResult(await ok(api.POST('/api/v2/policies/evaluate', { body: { project, manifests: text } }))),
              )
            }
          >
            Evaluate
          </Button>
          <ErrorNote error={evaluate.error} />
          {result && <Evaluation result={result} />}
        </>
      )}
    </section>
  );
}
