import type { OutboundPolicy } from '../src/net/outbound-policy';
import { createSafeSender, type AttemptResult, type SafeSendLimits } from '../src/net/safe-http';
import type {
  HttpCheck,
  MeasureCheck,
  Measurement,
  PrometheusCheck,
  WaveContext,
} from '../src/verification/check-spec';
import { renderPromql, renderUrl, TemplateError } from '../src/verification/check-template';
import { fieldAt } from '../src/verification/json-field';
import type { MetricSourceService } from '../src/verification/metric-source-service';
import { singleSample } from '../src/verification/prometheus-answer';
import { ConditionError, meets, parseCondition } from '../src/verification/success-condition';

export interface VerificationActivityDeps {
  metricSources: Pick<MetricSourceService, 'opened'>;
  /** The outbound rules of notification targets (NOTIFY_*), checked afresh at every measurement. */
  outbound: OutboundPolicy;
  /** Connect and total timeouts of notification sends; the response cap is raised to fit a query answer. */
  limits: SafeSendLimits;
}

/** A Prometheus answer of one sample is small; a larger one is cut here and then fails to parse. */
const ANSWER_CAP_BYTES = 64 * 1024;

type Verdict = Pick<Measurement, 'value' | 'passed' | 'error'>;

const failed = (error: string, value: Measurement['value'] = null): Verdict => ({ value, passed: false, error });

/** Why an exchange gave no usable answer (refused by the outbound rules, a timeout, a connection error). */
function unanswered(result: AttemptResult): string | null {
  if (result.status === 'refused') return `refused by the outbound rules: ${result.error}`;
  if (result.status === 'timeout') return result.error ?? 'timed out';
  if (result.responseStatus === null) return `not reachable: ${result.error ?? 'no answer'}`;
  return null;
}

/** `<source url>/api/v1/query?query=...`, keeping a path prefix the source URL has (a proxy's `/prometheus`). */
function queryUrl(base: string, query: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v1/query`;
  url.searchParams.set('query', query);
  return url.toString();
}

/** How a JSON field's value is reported: scalars as they are, anything else as capped JSON text. */
function reported(value: unknown): Measurement['value'] {
  if (value === undefined) return null;
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as Measurement['value'];
  return JSON.stringify(value).slice(0, 200);
}

/**
 * `measureCheck` (src/verification/check-spec.ts): one measurement of a rollout wave's check. Every failure to
 * measure (an unknown source, a refused address, a timeout, a query error, not exactly one sample) is a failed
 * measurement with its reason, never a thrown error: the rollout workflow counts it against the check's failure limit.
 */
export function createVerificationActivities(deps: VerificationActivityDeps): { measureCheck: MeasureCheck } {
  const send = createSafeSender(deps.outbound, {
    ...deps.limits,
    responseCapBytes: Math.max(deps.limits.responseCapBytes, ANSWER_CAP_BYTES),
  });

  async function prometheus(check: PrometheusCheck, context: WaveContext): Promise<Verdict> {
    const condition = parseCondition(check.successCondition);
    const source = await deps.metricSources.opened(context.orgId, check.metricSource);
    if (!source) return failed(`metric source "${check.metricSource}" not found`);
    const result = await send({
      url: queryUrl(source.url, renderPromql(check.query, context)),
      method: 'GET',
      headers: { accept: 'application/json', ...(source.token ? { authorization: `Bearer ${source.token}` } : {}) },
      body: '',
    });
    const reason = unanswered(result);
    if (reason !== null) return failed(`metric source "${source.name}" ${reason}`);
    const sample = singleSample(result.responseBody ?? '');
    if ('error' in sample) return failed(`${sample.error} (HTTP ${result.responseStatus})`);
    if (!Number.isFinite(sample.value)) return failed(`query measured ${sample.value}, not a finite number`);
    return { value: sample.value, passed: meets(condition, sample.value) };
  }

  async function http(check: HttpCheck, context: WaveContext): Promise<Verdict> {
    const result = await send({
      url: renderUrl(check.url, context),
      method: 'GET',
      headers: { accept: 'application/json' },
      body: '',
    });
    const reason = unanswered(result);
    if (reason !== null) return failed(reason);
    const status = result.responseStatus!;
    const expected = check.expectStatus ?? 200;
    if (status !== expected) return failed(`answered HTTP ${status}, expected ${expected}`, status);
    if (check.jsonField === undefined) return { value: status, passed: true };
    let document: unknown;
    try {
      document = JSON.parse(result.responseBody ?? '');
    } catch {
      return failed('answer is not JSON (or larger than 64 KiB)');
    }
    const value = fieldAt(document, check.jsonField);
    if (value === undefined) return failed(`field ${check.jsonField} is missing`);
    if (check.expectValue !== undefined && value !== check.expectValue) {
      return failed(
        `field ${check.jsonField} is ${JSON.stringify(reported(value))}, expected ${JSON.stringify(check.expectValue)}`,
        reported(value),
      );
    }
    return { value: reported(value), passed: true };
  }

  return {
    async measureCheck({ check, context }) {
      const at = new Date().toISOString();
      let verdict: Verdict;
      try {
        verdict = check.kind === 'prometheus' ? await prometheus(check, context) : await http(check, context);
      } catch (err) {
        // A malformed template or condition: the check as written can never pass.
        if (!(err instanceof TemplateError || err instanceof ConditionError)) throw err;
        verdict = failed(err.message);
      }
      return { check: check.name, at, ...verdict };
    },
  };
}
