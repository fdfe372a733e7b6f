import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import type { Schema } from '../api/models';

export type Features = Schema<'features'>;
export type Feature = keyof Features['features'];

/** The organization's plan and gated features (GET /api/v2/features), shared by every view that gates something. */
export function useFeatures() {
  return useQuery({ queryKey: ['features'], queryFn: () => ok(api.GET('/api/v2/features')) });
}

const capital = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

/**
 * Says which plan a feature needs when the organization's plan lacks it; renders nothing when it is included (or
 * while the plan is loading). `what` names the feature in a sentence ("Custom resource definitions").
 */
export function PlanNote({ feature, what }: { feature: Feature; what: string }) {
  const features = useFeatures();
  const gate = features.data?.features[feature];
  if (!gate || gate.enabled) return null;
  return (
    <p className="plan-note">
      {what} need the {capital(gate.requiredPlan)} plan; this organization is on {capital(features.data!.plan)}.
    </p>
  );
}

/** True once the plan is known to include the feature. */
export function useFeatureEnabled(feature: Feature): boolean {
  return useFeatures().data?.features[feature]?.enabled ?? false;
}
