/**
 * Verification as data (issue 48): the checks a rollout wave runs after it is Synced and Healthy and has soaked.
 * Each check is measured `count` times, `intervalSeconds` apart (durable sleeps in the rollout workflow, one
 * `measureCheck` activity per measurement); it fails as soon as more than `failureLimit` measurements failed and passes
 * once `count` measurements are in with at most `failureLimit` failures. The controller's own health (Synced, Healthy,
 * Degraded) is not a check here: the rollout workflow waits for it and halts on Degraded by itself.
 */
export interface CheckCadence {
  /** Seconds between two measurements of this check. */
  intervalSeconds: number;
  /** Measurements to take before the check passes. */
  count: number;
  /** Failed measurements tolerated; one more fails the check (and halts the rollout). */
  failureLimit: number;
}

/** A PromQL instant query against one of the organization's metric sources, over its HTTP API. */
export interface PrometheusCheck extends CheckCadence {
  kind: 'prometheus';
  name: string;
  /** The metric source's name (unique per organization). */
  metricSource: string;
  /** PromQL with `{{tenants}}`, `{{namespaces}}` (regex alternations, quoted-safe), `{{version}}`, `{{environment}}`. */
  query: string;
  /** `result <op> number`, op one of < <= > >= == !=; the query must return exactly one sample (scalar or vector). */
  successCondition: string;
}

/** An HTTP GET: passes on the expected status and, when given, a JSON field (dot path) equal to a value. */
export interface HttpCheck extends CheckCadence {
  kind: 'http';
  name: string;
  /** Templated like a Prometheus query; checked by the same SSRF rules as notification targets. */
  url: string;
  expectStatus?: number;
  jsonField?: string;
  expectValue?: string | number | boolean;
}

export type VerificationCheck = PrometheusCheck | HttpCheck;

/** What a wave is, for templating and for the metric source lookup. */
export interface WaveContext {
  orgId: string;
  projectSlug: string;
  environment: string;
  tenants: string[];
  namespaces: string[];
  version: string;
}

export interface MeasureCheckInput {
  check: VerificationCheck;
  context: WaveContext;
}

/** One measurement: the observed value (a number for Prometheus, the status or field for HTTP) and its verdict. */
export interface Measurement {
  check: string;
  at: string;
  value: number | string | boolean | null;
  passed: boolean;
  /** Why it failed or could not be measured (a query error, a timeout, a refused address); counts as a failure. */
  error?: string;
}

/** The activity's signature (activities/verification.ts implements it; workflows proxy it by this name). */
export type MeasureCheck = (input: MeasureCheckInput) => Promise<Measurement>;
