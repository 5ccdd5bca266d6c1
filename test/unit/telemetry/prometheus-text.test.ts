import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../../support/prometheus-text.js';

const EXPOSITION = [
  '# HELP target_info Target metadata',
  '# TYPE target_info gauge',
  'target_info{service_name="svc"} 1',
  '# HELP latency_ms A "latency", with a \\\\ and a\\nsecond line',
  '# UNIT latency_ms ms',
  '# TYPE latency_ms histogram',
  'latency_ms_count{method="ReadRows",table="a\\"b\\\\c\\nd"} 3',
  'latency_ms_sum{method="ReadRows",table="a\\"b\\\\c\\nd"} 4.5',
  'latency_ms_bucket{method="ReadRows",table="a\\"b\\\\c\\nd",le="1"} 1',
  'latency_ms_bucket{method="ReadRows",table="a\\"b\\\\c\\nd",le="+Inf"} 3',
  '# TYPE hits_total counter',
  'hits_total 2e3 1700000000000',
  '',
].join('\n');

describe('parsePrometheusText', () => {
  it('reads families, their metadata and samples with escaped label values', () => {
    const families = parsePrometheusText(EXPOSITION);
    expect([...families.keys()]).toEqual(['target_info', 'latency_ms', 'hits_total']);
    const latency = families.get('latency_ms');
    expect(latency).toMatchObject({ type: 'histogram', unit: 'ms', help: 'A "latency", with a \\ and a\nsecond line' });
    expect(latency?.samples.map((s) => s.name)).toEqual([
      'latency_ms_count',
      'latency_ms_sum',
      'latency_ms_bucket',
      'latency_ms_bucket',
    ]);
    expect(latency?.samples[3]).toEqual({
      name: 'latency_ms_bucket',
      labels: { method: 'ReadRows', table: 'a"b\\c\nd', le: '+Inf' },
      value: 3,
    });
    expect(families.get('hits_total')?.samples).toEqual([{ name: 'hits_total', labels: {}, value: 2000 }]);
  });

  it.each([
    ['an undeclared family', 'nobody_declared 1'],
    ['a histogram suffix on a counter', '# TYPE c counter\nc_bucket{le="1"} 1'],
    ['an unquoted label value', '# TYPE g gauge\ng{a=1} 1'],
    ['an unterminated label value', '# TYPE g gauge\ng{a="1} 1'],
    ['a bad escape', '# TYPE g gauge\ng{a="\\t"} 1'],
    ['a value that is no number', '# TYPE g gauge\ng 1x'],
    ['a repeated sample', '# TYPE g gauge\ng{a="1"} 1\ng{a="1"} 2'],
    ['an unknown type', '# TYPE g meter'],
  ])('rejects %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow(/^prometheus text: /);
  });
});
