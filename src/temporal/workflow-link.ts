/** The workflow's page in the Temporal Web UI, or null when no UI is known (TEMPORAL_UI_URL unset, not embedded). */
export function workflowLink(uiUrl: string | undefined, namespace: string, workflowId: string): string | null {
  return uiUrl
    ? `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`
    : null;
}
