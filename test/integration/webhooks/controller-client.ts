import { httpClient } from '../../helpers/http-client';

/** What the controller's notification posts (docs/webhooks.md has the argocd-notifications template). */
export function controllerEvent(
  name: string,
  revision: string,
  healthStatus = 'Healthy',
  syncStatus = 'Synced',
  at = new Date(),
) {
  return {
    app: {
      metadata: { name, namespace: 'argocd' },
      status: { sync: { status: syncStatus, revision }, health: { status: healthStatus } },
    },
    timestamp: at.toISOString(),
  };
}

/**
 * Posts controller events as Argo CD notifications would, with the organization's controller token (created once per
 * admin token) and strictly increasing timestamps, so two reports of one Application are never taken for a replay.
 */
export function controllerClient(baseUrl: string) {
  const http = httpClient(baseUrl);
  const tokens = new Map<string, string>();
  let last = 0;
  return {
    async tokenFor(adminToken: string): Promise<string> {
      let token = tokens.get(adminToken);
      if (!token) {
        const res = await http.post<{ token: string }>('/api/v2/org/cdcontroller-token', { token: adminToken });
        if (res.status !== 200) throw new Error(`controller token: ${res.status} ${res.text}`);
        token = res.body.token;
        tokens.set(adminToken, token);
      }
      return token;
    },
    async post(controllerToken: string, body: unknown) {
      return http.post<Record<string, unknown>>('/api/v1/webhooks/cdcontroller', {
        body,
        headers: { Authorization: `Bearer ${controllerToken}` },
      });
    },
    /** A report of one Application at a fresh instant. */
    event(name: string, revision: string, healthStatus = 'Healthy', syncStatus = 'Synced') {
      last = Math.max(Date.now(), last + 1);
      return controllerEvent(name, revision, healthStatus, syncStatus, new Date(last));
    },
  };
}
