import { status as grpcStatus } from '@grpc/grpc-js';
import type { Client } from '@temporalio/client';
import type { ReadinessCheck } from '../http/readiness';
import { missingSearchAttributes } from './search-attributes';

const codeOf = (err: unknown) => (err as { code?: unknown }).code;

/**
 * The readiness check `temporal-namespace` (issue 43, M2): TEMPORAL_NAMESPACE exists and has the platform's custom
 * search attributes (src/temporal/definitions.ts), without which no workflow can start or upsert them. A worker
 * registers missing ones at start when it has operator rights; a credential that may not list search attributes
 * (PERMISSION_DENIED) leaves them unchecked. Once passed it stays passed: the check asks again only while it fails.
 */
export function temporalNamespaceCheck(client: Client, namespace: string): ReadinessCheck {
  let passed = false;
  const connection = client.connection;
  // A deadline ends the call (and the client's retries of it) with the probe.
  const withDeadline = <T>(call: () => Promise<T>) => connection.withDeadline(Date.now() + 1500, call);
  return {
    name: 'temporal-namespace',
    selfCheck: 'fatal',
    async check() {
      if (passed) return null;
      try {
        await withDeadline(() => connection.workflowService.describeNamespace({ namespace }));
      } catch (err) {
        if (codeOf(err) !== grpcStatus.NOT_FOUND) throw err;
        return `the Temporal namespace "${namespace}" does not exist (TEMPORAL_NAMESPACE): create it, e.g. \`temporal operator namespace create --namespace ${namespace}\``;
      }
      let missing: string[] = [];
      try {
        missing = await withDeadline(() => missingSearchAttributes(connection, namespace));
      } catch (err) {
        if (codeOf(err) !== grpcStatus.PERMISSION_DENIED) throw err;
      }
      if (missing.length > 0) {
        return `the Temporal namespace "${namespace}" lacks the search attributes ${missing.join(', ')} (Keyword): a worker with operator rights registers them at start, else \`temporal operator search-attribute create --namespace ${namespace} --name <name> --type Keyword\``;
      }
      passed = true;
      return null;
    },
  };
}
