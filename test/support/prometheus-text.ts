// Reading a /metrics answer with a real Prometheus text-format parser
// (parse-prometheus-text-format), then picking one sample by name and labels.
// @ts-expect-error: the package ships no type declarations.
import parse from "parse-prometheus-text-format";

interface Sample {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}

export const parseMetrics = (text: string): Family[] => parse(text);

/** The sample of `name` whose labels include `labels`; fails when there is none. */
export function sampleOf(families: Family[], name: string, labels: Record<string, string> = {}) {
  const family = families.find((f) => f.name === name);
  const found = family?.metrics.find((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  if (!found) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`);
  return found;
}

/** The numeric value of a counter or gauge sample. */
export const metricValue = (
  families: Family[],
  name: string,
  labels: Record<string, string> = {},
) => Number(sampleOf(families, name, labels).value);
