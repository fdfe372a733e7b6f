import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ErrorNote } from '../../components/form';
import { ShownOnce } from '../../components/shown-once';
import { useAction } from '../../components/use-action';
import type { Cluster } from './models';

/** The agent's way in: a one-time join token with the command line that uses it, and credential rotation. */
export function ClusterAccess({ cluster }: { cluster: Cluster }) {
  const [join, setJoin] = useState<{ joinToken: string; expiresAt: string } | null>(null);
  const [credential, setCredential] = useState<{ agentCredential: string; previousCredentialsExpireAt: string } | null>(
    null,
  );
  const action = useAction([['cluster', cluster.id]]);
  const path = { params: { path: { clusterId: cluster.id } } };
  return (
    <section aria-labelledby="access-heading">
      <h2 id="access-heading">Agent access</h2>
      <div className="row">
        <Button
          className="button"
          onPress={() =>
            void action.run(async () => setJoin(await ok(api.POST('/api/v2/clusters/{clusterId}/join-token', path))))
          }
        >
          Create a join token
        </Button>
        <Button
          className="button"
          onPress={() =>
            void action.run(async () =>
              setCredential(await ok(api.POST('/api/v2/clusters/{clusterId}/rotate-token', path))),
            )
          }
        >
          Rotate the agent credential
        </Button>
      </div>
      <ErrorNote error={action.error} />
      {join && (
        <ShownOnce
          label={`Join token (usable once, until ${new Date(join.expiresAt).toLocaleString()})`}
          value={join.joinToken}
          hint={`Run the agent with it: npm run agent -- --server ${window.location.hostname}:<AGENT_GRPC_PORT> --join-token ${join.joinToken} --credential-file .agent-credential`}
        />
      )}
      {credential && (
        <ShownOnce
          label={`New agent credential (older ones stop at ${new Date(credential.previousCredentialsExpireAt).toLocaleString()})`}
          value={credential.agentCredential}
        />
      )}
    </section>
  );
}
