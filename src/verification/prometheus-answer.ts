/** What one Prometheus instant query measured: exactly one sample's value, or why there is none. */
export type SampleOutcome = { value: number } | { error: string };

const cap = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** Prometheus writes sample values as strings: numbers, `NaN`, `+Inf`, `-Inf`. */
function sampleValue(pair: unknown): SampleOutcome {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'string') {
    return { error: 'malformed sample in the answer' };
  }
  const text = pair[1];
  const value = text === '+Inf' ? Infinity : text === '-Inf' ? -Infinity : Number(text);
  if (text.trim() === '' || (Number.isNaN(value) && text !== 'NaN')) return { error: 'malformed sample value' };
  return { value };
}

/**
 * The one sample of an answer of `GET /api/v1/query` (https://prometheus.io/docs/prometheus/latest/querying/api/):
 * a scalar, or a vector of exactly one series. An empty vector, several series, a matrix or an error answer is a
 * failed measurement with its reason (Prometheus's own error message, capped).
 */
export function singleSample(body: string): SampleOutcome {
  let answer: { status?: unknown; error?: unknown; data?: { resultType?: unknown; result?: unknown } };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    return { error: 'the metric source answered something that is not a Prometheus JSON answer' };
  }
  if (answer.status !== 'success') {
    return { error: `query failed: ${typeof answer.error === 'string' ? cap(answer.error) : 'no reason given'}` };
  }
  const { resultType, result } = answer.data ?? {};
  if (resultType === 'scalar') return sampleValue(result);
  if (resultType !== 'vector' || !Array.isArray(result)) {
    return { error: `query must return one sample (a scalar or an instant vector), got ${String(resultType)}` };
  }
  if (result.length !== 1) {
    return {
      error:
        result.length === 0
          ? 'query returned no sample (no series matched)'
          : `query returned ${result.length} series; aggregate it to one (e.g. sum(...))`,
    };
  }
  return sampleValue((result[0] as { value?: unknown }).value);
}
