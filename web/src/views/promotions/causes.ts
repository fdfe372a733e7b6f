/** How each Blocked cause clears (docs/promotions.md), shown beside the server's message. */
export const CLEARS: Record<string, string> = {
  freeze: 'Clears when the freeze ends or is switched off, or with a break-glass session covering the target.',
  approvals: 'Clears as soon as the approvals the policies need arrive.',
  policy: 'Clears at the next recheck after the manifest policy or the project is fixed.',
  sourceUnhealthy: 'Clears at the next recheck after a Healthy release of the tenant in the source environment.',
  targetBusy: 'Clears at the next recheck after the release deploying to the target ends.',
};
