// caplab web page: plain ES2020 over the /api/v1 JSON endpoints, ECharts from the webjar; no build step.
'use strict';
// what a fit without a standing knee says (analysis KneeRule)
const NO_KNEE = 'none within the tested range';

const view = document.getElementById('view');
const tokenInput = document.getElementById('token');
// for this tab's session only: sessionStorage ends with the tab, localStorage would keep the token on disk
localStorage.removeItem('caplab.token');
tokenInput.value = sessionStorage.getItem('caplab.token') || '';
tokenInput.addEventListener('change', () => { sessionStorage.setItem('caplab.token', tokenInput.value); route(); });
const charts = [];

async function api(path, options = {}) {
  const headers = Object.assign({ 'Accept': 'application/json' }, options.headers || {});
  if (tokenInput.value) headers['Authorization'] = 'Bearer ' + tokenInput.value;
  const res = await fetch(path, Object.assign({}, options, { headers }));
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    // a problem+json's parameter names the field a form must change
    throw Object.assign(new Error((body.title || res.status) + ': ' + (body.detail || res.statusText)),
      { status: res.status, parameter: body.parameter, detail: body.detail });
  }
  return body;
}

const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
// every figure is written by figures.js, the rules the report's Figures also follows
const num = v => Figures.number(v);
const qty = (metric, v) => Figures.quantity(metric, v);
/** A load a straight line gives (a safe x, a plan's safe load), marked when it lies beyond the highest load tested. */
const lineLoad = (x, testedToX) => Figures.beyondTested(x, testedToX)
  ? `<span class="beyond-tested" title="${esc(Figures.beyondTestedNote())}">${esc(Figures.safeX(x, testedToX))}</span>`
  : esc(Figures.safeX(x, testedToX));
/** What lineLoad's mark means, under a table that shows one. */
const beyondTestedNote = marked => marked ? `<p class="note beyond-tested-note">${esc(Figures.beyondTestedNote())}</p>` : '';
/**
 * A run started without a provider, system name or tool stores "unknown" (schema's Unstated): the page shows it as
 * not said, never as a provider called "unknown".
 */
const unstated = v => v == null || v === '' || v === 'unknown';
const declared = (v, what) => unstated(v) ? `${what} not declared` : v;
/** A phrase only when its value is present: nothing is rendered for an absent value. */
const given = (v, phrase) => v == null || v === '' ? '' : phrase;
/** An axis name kept clear of the axis' labels: under the x axis, beside the y axis. */
const xAxisName = name => ({ name, nameLocation: 'middle', nameGap: 28 });
const yAxisName = name => ({ name, nameLocation: 'middle', nameGap: 72 });
// the server's sentence on the runs sent to the same id before and after this one, each named run a link
/** The steps table's note when a step's "over margin" resource is not the run's bottleneck. */
const overMarginNote = (steps, bottleneck) => {
  const name = bottleneck ? `${bottleneck.metric}@${bottleneck.source}` : null;
  return steps.some(s => s.bottleneck && s.bottleneck !== name)
    ? `<p class="note over-margin-vs-bottleneck">${esc(Figures.overMarginVersusBottleneck())}</p>` : '';
};
const continuationHtml = c => [c.continues, c.continuedBy].filter(Boolean).reduce((h, id) =>
  h.split(`run ${esc(id)}:`).join(`run <a href="#/run/${encodeURIComponent(id)}">${esc(id)}</a>:`), esc(c.text));
const loadText = load => Object.entries(load || {}).map(([k, v]) => k + '=' + v).join(', ');

/** A step's status as the API decides it (pass, fail, not judged, contaminated, pending), a failure in capitals. */
const stepVerdict = s => s.status === 'fail' ? 'FAIL' : s.status;

/** Rows as a table; without rows, the sentence {@code none} (when given) instead of an empty table. */
function table(columns, rows, rowClass = () => '', none = null) {
  if (!rows.length && none) return `<p class="note empty-table">${esc(none)}</p>`;
  // a column no row has a value in says nothing: it is left out and named once under the table
  const blank = v => v == null || v === '' || v === Figures.ABSENT;
  const empty = rows.length ? columns.filter(c => rows.every(r => blank(c[1](r)))) : [];
  const shown = columns.filter(c => !empty.includes(c));
  const head = shown.map(c => `<th>${esc(c[0])}</th>`).join('');
  const body = rows.map(r => `<tr class="${rowClass(r)}">` + shown.map(c => {
    const v = c[1](r);
    return `<td class="${typeof v === 'number' ? 'num' : ''}">${c[2] ? v : esc(typeof v === 'number' ? num(v) : v)}</td>`;
  }).join('') + '</tr>').join('');
  const left = empty.length ? `<p class="note empty-columns">No row has a value for ${esc(empty.map(c => c[0])
    .join(', '))}: ${empty.length === 1 ? 'that column is' : 'those columns are'} left out.</p>` : '';
  // wide tables scroll inside their box rather than lose their last columns
  return `<div class="table-box"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>${left}`;
}

function chart(id) {
  const c = echarts.init(document.getElementById(id));
  charts.push(c);
  return c;
}

const RUN_FILTERS = [['sut', 'system'], ['version', 'version'], ['tier', 'tier'], ['provider', 'provider'],
  ['tool', 'tool'], ['status', 'status']];
const PAGE = 100;
// which list of GET /api/v1/run-choices (every stored run's values, counted) a filter offers
const CHOICES = { sut: 'systems', version: 'versions', tier: 'tiers', provider: 'providers', tool: 'tools',
  status: 'statuses', loadExpression: 'loadExpressions' };

/** Every run, a page at a time: filters, sort and paging live in the address, so a view can be linked. */
async function runList(params) {
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const sort = params.get('sort') || 'startedAt';
  const order = params.get('order') || 'desc';
  const query = new URLSearchParams();
  RUN_FILTERS.forEach(([k]) => { if (params.get(k)) query.set(k, params.get(k)); });
  ['from', 'to'].forEach(k => { if (params.get(k)) query.set(k, new Date(params.get(k)).toISOString()); });
  query.set('sort', sort); query.set('order', order); query.set('limit', PAGE + 1); query.set('offset', offset);
  const [found, known] = await Promise.all([api('api/v1/runs?' + query), api('api/v1/run-choices')]);
  const runs = found.slice(0, PAGE);
  const more = found.length > PAGE;
  const hash = changes => {
    const next = new URLSearchParams(params);
    Object.entries(changes).forEach(([k, v]) => v == null || v === '' ? next.delete(k) : next.set(k, v));
    return '#/?' + next;
  };
  const options = k => known[CHOICES[k]].map(c => c.value);
  const field = ([k, label]) => `<label>${label} <input name="${k}" list="runs-${k}" value="${esc(params.get(k) || '')}"
    placeholder="any"><datalist id="runs-${k}">${options(k).map(v => `<option value="${esc(v)}">`).join('')}</datalist></label>`;
  const sortable = (label, key) => `<a class="sort" href="${hash({ sort: key, order: sort === key && order === 'desc' ? 'asc' : 'desc', offset: 0 })}">${esc(label)}${sort === key ? (order === 'desc' ? ' ▼' : ' ▲') : ''}</a>`;
  const columns = [
    ['run', r => `<a href="#/run/${encodeURIComponent(r.runId)}">${esc(r.runId)}</a>`, true],
    ['system', r => declared(r.sutName, 'system') + (r.sutVersion ? ' ' + r.sutVersion : '')],
    ['provider', r => declared(r.provider, 'provider')], ['tier', r => r.tier + (r.vcpu != null ? ` (${num(r.vcpu)} vCPU)` : '')],
    ['tool', r => declared(r.tool, 'tool')], ['load', r => r.loadExpression],
    ['started', r => r.startedAt ? Figures.time(r.startedAt) : ''], ['status', r => r.status],
    ['max stable', r => r.maxStableX == null ? '' : num(r.maxStableX)],
    ['first failing', r => r.failedX == null ? '' : num(r.failedX)],
    ['bottleneck', r => r.bottleneck || ''],
    ['egress ceiling', r => r.egressCeilingMbps == null ? '' : Figures.mbps(r.egressCeilingMbps)]];
  const sortKeys = { run: 'runId', system: 'sut', provider: 'provider', tier: 'tier', tool: 'tool', started: 'startedAt', status: 'status' };
  view.innerHTML = `<h1>Runs</h1>
    <form id="runs-form">${RUN_FILTERS.map(field).join('')}
      <label>started from <input type="datetime-local" name="from" value="${esc(params.get('from') || '')}"></label>
      <label>to <input type="datetime-local" name="to" value="${esc(params.get('to') || '')}"></label>
      <button type="submit">Filter</button> <a href="#/">clear</a></form>
    <p id="runs-page">${runs.length ? `runs ${offset + 1}–${offset + runs.length}` : 'no run matches'}${given(sort, ` · sorted by ${esc(Object.keys(sortKeys).find(label => sortKeys[label] === sort) || sort)} ${order === 'asc' ? 'ascending' : 'descending'}`)}
      ${offset > 0 ? ` · <a id="runs-prev" href="${hash({ offset: Math.max(0, offset - PAGE) })}">previous ${PAGE}</a>` : ''}
      ${more ? ` · <a id="runs-next" href="${hash({ offset: offset + PAGE })}">next ${PAGE}</a>` : ''}</p>` +
    // the headers of columns the API sorts by become links that sort (again: the other way)
    table(columns, runs).replace(/<th>([^<]*)<\/th>/g, (m, label) => { const key = sortKeys[label]; return key ? `<th>${sortable(label, key)}</th>` : m; });
  document.getElementById('runs-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const next = new URLSearchParams();
    [...RUN_FILTERS.map(([k]) => k), 'from', 'to'].forEach(k => { if (f.get(k)) next.set(k, f.get(k)); });
    if (params.get('sort')) next.set('sort', params.get('sort'));
    if (params.get('order')) next.set('order', params.get('order'));
    location.hash = '#/?' + next;
  });
  view.dataset.ready = 'runs';
}

/** Resource vs load: measured sustained values per step, the fitted segments, the knee and its 95 % interval. */
function fitChart(el, fit, points) {
  const segs = fit ? fit.segments.map(s => ({
    type: 'line', name: `fit ${fit.model}`, showSymbol: false, lineStyle: { width: 2 },
    data: [[s.fromX, s.intercept + s.slope * s.fromX], [s.toX, s.intercept + s.slope * s.toX]] })) : [];
  const knee = fit && fit.kneeX != null ? {
    markLine: { symbol: 'none', label: { formatter: `knee x = ${num(fit.kneeX)}` }, lineStyle: { color: '#c00', type: 'dashed' },
      data: [{ xAxis: fit.kneeX }] },
    markArea: fit.kneeLower95 != null ? { itemStyle: { color: 'rgba(200,0,0,0.08)' },
      data: [[{ xAxis: fit.kneeLower95 }, { xAxis: fit.kneeUpper95 }]] } : undefined } : {};
  const ceiling = fit && fit.capacity != null ? [{ type: 'line', name: 'ceiling', showSymbol: false,
    lineStyle: { type: 'dotted', color: '#888' }, data: points.length ? [[Math.min(...points.map(p => p[0])), fit.capacity],
      [Math.max(...points.map(p => p[0])), fit.capacity]] : [] }] : [];
  chart(el).setOption({
    title: { text: `${fit ? fit.metric : 'resource'} vs load` + (fit && fit.cliff ? ' — cliff' : ''), left: 'center' },
    tooltip: { trigger: 'item', valueFormatter: v => qty(fit && fit.metric, v) }, legend: { bottom: 0 }, grid: { left: 110, bottom: 70 },
    xAxis: Object.assign({ type: 'value', scale: true }, xAxisName(fit ? fit.loadExpression : 'x')),
    yAxis: Object.assign({ type: 'value', axisLabel: { formatter: v => qty(fit && fit.metric, v) } },
      yAxisName(fit ? fit.metric : ''), binaryAxis(fit && fit.metric, [...points.map(p => p[1]), fit && fit.capacity])),
    series: [Object.assign({ type: 'scatter', name: 'sustained per step', symbolSize: 10, data: points }, knee),
      ...segs, ...ceiling] });
}

/**
 * A y axis of bytes written in binary units ticks a power of two apart (512 MiB, 1 GiB, 1.5 GiB), as the report's
 * does; any other axis keeps ECharts' decimal ticks.
 */
function binaryAxis(metric, values) {
  const top = Math.max(0, ...values.filter(v => v != null && Number.isFinite(v)));
  if (!Figures.binary(metric) || !(top > 0)) return {};
  const step = 2 ** Math.ceil(Math.log2(top / 5));
  return { min: 0, max: Math.ceil(top / step) * step, interval: step };
}

/** What the CPU and egress chart draws. */
const CPU_OR_EGRESS = ['cpu.cores', 'net.tx.bytes', 'net.tx.mbps'];

/**
 * Why there is no resource fit to draw, as a sentence for the reader (no step closed yet, no resource readings in any
 * step, too few steps), or null when there is one.
 */
function resourceFitMissing(run, aggregates, fit) {
  if (fit) return null;
  const steps = new Set(aggregates.filter(a => a.x != null).map(a => a.x));
  // a.resource: the server's word on whether a metric is a resource reading (CPU, memory, network… of a host)
  const resourceSteps = new Set(aggregates.filter(a => a.x != null && a.resource).map(a => a.x));
  if (!steps.size) return run.status === 'RUNNING'
    ? 'Resource use against load is drawn once the first step has closed.'
    : 'No resource charts: this run has no load steps (declare them, or send the load tool\'s users so steps are inferred).';
  if (!resourceSteps.size) return 'No resource charts: ' + Figures.noResourceReadings(run.runId);
  return `No resource fit yet: ${resourceSteps.size} step${resourceSteps.size === 1 ? '' : 's'} with resource readings`
    + (resourceSteps.size < 3 ? ', a fit needs at least 3.' : '.');
}

/**
 * CPU and egress on one chart, each against its own ceiling: which reaches it first is the bound (seed 002). One CPU
 * line per fitted source (the system's and its hosts': agents and the generator are never fitted), each with its own
 * ceiling; egress of the bottleneck's source, else of the first fitted one.
 */
function cpuEgressChart(el, run, aggregates, fits, ceiling, bn) {
  // steps only (baseline and unassigned rows have no x)
  const stepRows = (metric, source) => aggregates.filter(a => a.x != null && a.metric === metric
    && (source == null || a.source === source));
  const cpuFits = fits.filter(f => !f.throughputFit && f.metric === 'cpu.cores')
    .sort((a, b) => (b.bottleneck - a.bottleneck) || (bn && b.source === bn.source) - (bn && a.source === bn.source));
  const palette = ['#2f6fbf', '#5ab05a', '#8b3fb5', '#888'];
  const cpuName = f => `CPU cores ${f.source}${f.role ? ' (' + f.role + ')' : ''}`;
  const cpuLines = cpuFits.map((f, i) => ({ type: 'line', name: cpuName(f), itemStyle: { color: palette[i % 4] },
    data: stepRows('cpu.cores', f.source).map(a => [a.x, a.sustained]).sort((a, b) => a[0] - b[0]) }));
  const txFit = fits.find(f => f.metric === 'net.tx.bytes' && bn && f.source === bn.source)
    || fits.find(f => f.metric === 'net.tx.bytes');
  const txSource = txFit ? txFit.source : (bn ? bn.source : (cpuFits[0] || {}).source);
  // Egress counters become Mbit/s from their per-step rate; a tool may also report Mbit/s directly.
  const egress = stepRows('net.tx.bytes', txSource).filter(a => a.ratePerSecond != null)
    .map(a => [a.x, Figures.toMbps(a.ratePerSecond)])
    .concat(stepRows('net.tx.mbps', txSource).map(a => [a.x, a.sustained]))
    .sort((a, b) => a[0] - b[0]);
  const xs = aggregates.map(a => a.x).filter(x => x != null);
  const xr = [Math.min(...xs), Math.max(...xs)];
  const ceilingLine = (value, name, yAxisIndex, color) => value == null ? [] : [{ type: 'line', name, yAxisIndex,
    showSymbol: false, lineStyle: { type: 'dashed', color }, itemStyle: { color }, data: [[xr[0], value], [xr[1], value]] }];
  const egressCeiling = ceiling ? ceiling.mbps : null;
  // each fitted source's own CPU ceiling (a host's cores, a process group's vCPU), once per distinct value
  const byCeiling = new Map();
  cpuFits.forEach((f, i) => { const c = f.capacity != null ? f.capacity : run.vcpu;
    if (c != null && !byCeiling.has(c)) byCeiling.set(c, { sources: [], color: palette[i % 4] });
    if (c != null) byCeiling.get(c).sources.push(f.source); });
  if (!cpuFits.length && run.vcpu != null) byCeiling.set(run.vcpu, { sources: ['vCPU'], color: palette[0] });
  const cpuCeilings = [...byCeiling].flatMap(([c, v]) => ceilingLine(c, `CPU ceiling ${qty('cpu.cores', c)} (${v.sources.join(', ')})`, 0, v.color));
  const cpuMax = Math.max(0, ...byCeiling.keys());
  // without egress readings or a ceiling the right axis and its series would be an empty promise
  const withEgress = egress.length > 0 || egressCeiling != null;
  chart(el).setOption({
    title: { text: withEgress ? 'CPU and egress vs load, with their ceilings' : 'CPU vs load, with its ceiling',
      left: 'center' },
    tooltip: { trigger: 'axis' }, legend: { bottom: 0 }, grid: { bottom: 90 },
    xAxis: Object.assign({ type: 'value', scale: true }, xAxisName(run.loadExpression)),
    // the top labels are left out: a max stretched to show a ceiling is no round number and crowds the one below
    yAxis: [{ type: 'value', name: 'CPU cores', max: v => Math.ceil(Math.max(v.max, cpuMax) * 11) / 10,
      axisLabel: { showMaxLabel: false } },
      ...(withEgress ? [{ type: 'value', name: 'egress Mbit/s', max: v => Math.ceil(Math.max(v.max, egressCeiling || 0) * 1.1),
        axisLabel: { showMaxLabel: false } }] : [])],
    series: [...cpuLines,
      ...(egress.length ? [{ type: 'line', name: 'egress Mbit/s (sustained)', yAxisIndex: 1, data: egress,
        itemStyle: { color: '#d9822b' } }] : []),
      ...cpuCeilings,
      ...ceilingLine(egressCeiling, `egress ceiling ${Figures.mbps(egressCeiling)}${ceiling ? ` (${ceiling.text})` : ''}`, 1, '#d9822b')] });
}

/**
 * Throughput and latency against load: requests/s per step with the throughput limit (knee and its 95 % interval),
 * the mean latency and p50/p95/p99 (merged sketches, the tool's windows or, for the mean, the tool's own totals), the error ratio, and the run's SLO thresholds as dashed lines.
 */
function throughputChart(el, t) {
  const steps = t.steps.filter(s => s.x != null && s.requestsPerSecond != null).sort((a, b) => a.x - b.x);
  const limit = t.throughputLimit;
  const knee = limit ? {
    markLine: { symbol: 'none', label: { formatter: `throughput limit x = ${num(limit.kneeX)}` },
      lineStyle: { color: '#c00', type: 'dashed' }, data: [{ xAxis: limit.kneeX }] },
    markArea: { itemStyle: { color: 'rgba(200,0,0,0.08)' }, data: [[{ xAxis: limit.kneeLower95 }, { xAxis: limit.kneeUpper95 }]] } } : {};
  // where the percentiles come from (merged sketches of every request, or the median of the tool's own windows)
  const combinations = [...new Set(steps.map(s => s.latencyCombination).filter(c => c != null)
    .map(c => c.replace(/\d+ /, '')))];
  // where the mean comes from (every request's samples, or the tool's own since-start totals)
  const means = [...new Set(steps.map(s => s.latencyMeanFrom).filter(c => c != null)
    .map(c => c.replace(/ over \d+ requests$/, '').replace(/ of \d+ requests$/, '')))];
  const subtext = [combinations.length ? `percentiles: ${combinations.join('; ')}` : '',
    means.length ? `mean: ${means.join('; ')}` : ''].filter(Boolean).join(' · ');
  const latency = (name, key, color) => ({ type: 'line', name, yAxisIndex: 1, itemStyle: { color },
    data: steps.filter(s => s[key] != null).map(s => [s.x, s[key]]) });
  const slo = t.sloLines.map(l => ({ type: 'line', name: `SLO ${l.condition}`,
    yAxisIndex: l.axis === 'latency' ? 1 : l.axis === 'errors' ? 2 : 0, showSymbol: false,
    lineStyle: { type: 'dashed', color: '#a00' }, itemStyle: { color: '#a00' },
    data: steps.length ? [[steps[0].x, l.axis === 'errors' ? l.threshold * 100 : l.threshold],
      [steps[steps.length - 1].x, l.axis === 'errors' ? l.threshold * 100 : l.threshold]] : [] }));
  chart(el).setOption({
    title: { text: 'Throughput and latency vs load' + (limit ? ` — limit at x = ${num(limit.kneeX)}` : ''), left: 'center',
      subtext },
    tooltip: { trigger: 'axis', valueFormatter: v => num(v) }, legend: { bottom: 0 }, grid: { left: 90, right: 130, bottom: 90 },
    xAxis: Object.assign({ type: 'value', scale: true }, xAxisName(t.loadExpression)),
    // three axes: each name runs along its own axis, so the two on the right never print into each other
    yAxis: [Object.assign({ type: 'value' }, yAxisName('requests/s')),
      { type: 'value', name: 'latency ms', nameLocation: 'middle', nameGap: 38 },
      { type: 'value', name: 'errors %', nameLocation: 'middle', nameGap: 34, offset: 62, position: 'right',
        splitLine: { show: false } }],
    series: [Object.assign({ type: 'line', name: 'requests/s', data: steps.map(s => [s.x, s.requestsPerSecond]),
      itemStyle: { color: '#2f6fbf' } }, knee),
      // a tool that wrote percentiles since start only gives a mean and no percentile: no empty legend entries
      ...[latency('mean ms', 'latencyMeanMs', '#5a4a8a'), latency('p50 ms', 'latencyP50Ms', '#5ab05a'),
        latency('p95 ms', 'latencyP95Ms', '#d9822b'), latency('p99 ms', 'latencyP99Ms', '#8b3fb5')]
        .filter(l => l.data.length),
      { type: 'line', name: 'errors %', yAxisIndex: 2, lineStyle: { type: 'dotted' }, itemStyle: { color: '#c33' },
        data: steps.filter(s => s.errorRatio != null).map(s => [s.x, s.errorRatio * 100]) },
      ...slo] });
}

async function runPage(runId) {
  const id = encodeURIComponent(runId);
  const [detail, aggregates, throughput] = await Promise.all([api(`api/v1/runs/${id}`),
    api(`api/v1/runs/${id}/aggregates`), api(`api/v1/runs/${id}/throughput`)]);
  const run = detail.run;
  const provider = unstated(run.provider) ? null : run.provider;
  const running = run.status === 'RUNNING';
  // the run conclusion is the one decision (max stable load, bottleneck, capacity): the page shows it, never re-decides
  const conclusion = detail.conclusion || { resources: [] };
  const bn = conclusion.bottleneck;
  // the request rate's fit is the throughput limit's, drawn on its own chart, not a resource's
  const resourceFits = detail.fits.filter(f => !f.throughputFit);
  const fit = (bn && resourceFits.find(f => f.metric === bn.metric && f.source === bn.source))
    || resourceFits.find(f => f.cliff) || resourceFits[0];
  const limit = detail.throughputLimit;
  const hasThroughput = throughput.steps.some(s => s.requestsPerSecond != null);
  const capacityMarked = conclusion.resources.some(r => Figures.beyondTested(r.safeCapacityX, detail.testedToX));
  const points = fit ? aggregates.filter(a => a.x != null && a.metric === fit.metric && a.source === fit.source).map(a => [a.x, a.sustained]) : [];
  view.innerHTML = `<h1>${esc(run.runId)}</h1>
    <p class="facts"><span id="run-status">${esc(run.status)}</span>
    <span>${run.origin === 'INFERRED' ? 'inferred from its samples (no run start)' : 'declared'}</span>
    <span>started ${esc(Figures.time(run.startedAt))}</span>${run.endedAt ? `<span>ended ${esc(Figures.time(run.endedAt))}</span>` : ''}</p>
    <p class="facts"><span>${unstated(run.sutName) ? 'system not declared' : esc(run.sutName)}${given(run.sutVersion, ' ' + esc(run.sutVersion))}</span>
    ${given(provider || run.region, `<span>${esc([provider, run.region].filter(Boolean).join(' '))}</span>`)}
    ${given(run.tier || run.vcpu, `<span>${given(run.tier, 'tier ' + esc(run.tier))}${given(run.vcpu, ` (${num(run.vcpu)} vCPU)`)}</span>`)}
    ${given(run.memoryBytes, `<span>memory ${Figures.bytes(run.memoryBytes)}</span>`)}
    <span id="egress-ceiling">${detail.egressCeiling ? `egress ceiling ${Figures.mbps(detail.egressCeiling.mbps)} (${esc(detail.egressCeiling.text)})`
      : 'no egress ceiling known'}</span>
    ${given(run.measuredEgressMbps, `<span>egress measured ${Figures.mbps(run.measuredEgressMbps)}</span>`)}
    ${given(run.nominalEgressMbps, `<span>egress nominal ${Figures.mbps(run.nominalEgressMbps)}</span>`)}</p>
    <p class="facts"><span>max stable load <b id="max-stable">${detail.maxStableX == null ? (detail.maxStableNote ? 'not judged' : 'none') : num(detail.maxStableX)}</b></span>
    <span>first failing <b>${detail.failedX == null ? 'none' : num(detail.failedX)}</b></span><span>bottleneck <b id="bottleneck">${bn ? esc(bn.metric) : 'none'}</b>${bn ? ` <span id="bottleneck-source">${esc(bn.source)}${bn.role ? ` (${esc(bn.role)})` : ''}</span>` : ''}</span>
    <span title="samples that reached a step after it closed: they amended it">late samples <b id="late-samples">${detail.lateness.lateSamples}</b></span>
    <span title="samples after the allowed lateness: stored raw, in no aggregate or fit">beyond allowed lateness <b id="beyond-lateness">${detail.lateness.beyondLatenessSamples}</b></span>
    ${fit && fit.baseline != null ? `<span>below the knee: ${esc(fit.metric)} = ${esc(Figures.formula(fit.metric, fit.baseline, fit.slopePerX, fit.loadExpression))}</span>` : ''}
    ${limit ? `<span>throughput limit <b id="throughput-limit">x=${num(limit.kneeX)}</b> (95 % ${num(limit.kneeLower95)}–${num(limit.kneeUpper95)}),
      plateau ${num(limit.plateauRatePerSecond)} requests/s</span>` : ''}</p>
    ${bn ? `<p class="why" id="bottleneck-why">${esc(bn.metric)} of ${esc(bn.source)} is the bottleneck because ${esc(Figures.rule(bn.rule))}.</p>` : ''}
    ${detail.continuation ? `<p class="continuation" id="continuation">${continuationHtml(detail.continuation)}</p>` : ''}
    ${(conclusion.warnings || []).map(w => `<p class="warning conclusion-warning" data-kind="${esc(w.kind)}">${esc(w.message)}</p>`).join('')}
    ${detail.maxStableNote ? `<p class="warning stable-note" id="max-stable-note">${esc(detail.maxStableNote)}</p>` : ''}
    ${detail.warnings.map(w => `<p class="warning run-warning">${esc(w)}</p>`).join('')}
    ${running ? livePanel() : ''}
    <div id="fit-chart" class="chart"></div><div id="cpu-egress-chart" class="chart"></div>
    ${hasThroughput ? '<div id="throughput-chart" class="chart"></div>' : ''}
    ${running ? '' : livePanel()}
    <h2>Steps</h2>` + table([
      ['step', s => s.stepIndex], ['load', s => loadText(s.load)], ['x', s => s.x],
      ['verdict', stepVerdict],
      ['failed rules', s => s.failedRules], ['over margin', s => s.bottleneck],
      ['contaminated', s => s.contaminated ? (s.contaminationReason || 'yes') : ''],
      ['late data', s => s.amended ? `<span class="amended-mark">amended (${s.lateSamples} late sample${s.lateSamples === 1 ? '' : 's'})</span>` : '', true]],
      detail.steps,
      s => s.status.replace(' ', '-') + (s.amended ? ' amended' : '')) +
    overMarginNote(detail.steps, bn) +
    (hasThroughput ? `<h2>Throughput per step</h2><div id="throughput-steps">` + table([
      ['step', s => s.stepIndex], ['load', s => loadText(s.load)],
      ['requests/s', s => num(s.requestsPerSecond)], ['errors %', s => s.errorRatio == null ? '' : num(s.errorRatio * 100)],
      ['mean ms', s => num(s.latencyMeanMs)],
      ['p50 ms', s => num(s.latencyP50Ms)], ['p95 ms', s => num(s.latencyP95Ms)], ['p99 ms', s => num(s.latencyP99Ms)],
      ['generator CPU %', s => num(s.loadGeneratorCpuPercent)], ['mean from', s => s.latencyMeanFrom],
      ['percentiles', s => s.latencyCombination]],
      throughput.steps) + '</div>' : '') +
    `<h2>Capacity${given(conclusion.margin, ` at a planning margin of ${Figures.percent(conclusion.margin)} of each ceiling`)}</h2>` + table([['resource', r => `${r.metric}@${r.source}`],
      ['role', r => r.role],
      ['ceiling', r => r.ceiling == null ? '' : qty(r.metric, r.ceiling)], ['line over', r => `${r.preKneeSteps} steps, x ${num(r.fromX)}–${num(r.toX)}`],
      ['base', r => r.intercept == null ? '' : qty(r.metric, r.intercept)], ['slope per x', r => r.slope == null ? '' : qty(r.metric, r.slope)],
      ['slope SE', r => r.slopeVariance == null ? '' : qty(r.metric, Math.sqrt(r.slopeVariance))],
      ['safe x', r => lineLoad(r.safeCapacityX, detail.testedToX), true], ['safe x 95 %', r => r.safeCapacityLower95 == null ? '' : `${num(r.safeCapacityLower95)}–${num(r.safeCapacityUpper95)}`],
      ['capped by cliff', r => r.cappedByCliff ? `yes (last stable ${num(r.lastStableX)})` : ''], ['knee x', r => r.kneeX == null ? NO_KNEE : r.kneeX]],
      conclusion.resources, () => '', 'No capacity estimate: no resource of the system under test was fitted against the load.') +
    beyondTestedNote(capacityMarked) +
    `<p class="note capacity-vs-fit">${esc(Figures.capacityVersusFit())}</p>` +
    `<h2>Fits</h2>` + table([['metric', f => f.metric], ['source', f => f.source], ['role', f => f.role],
      ['model', f => f.model], ['base', f => f.baseline == null ? '' : qty(f.metric, f.baseline)],
      ['slope per x', f => f.slopePerX == null ? '' : qty(f.metric, f.slopePerX)], ['knee x', f => f.kneeX == null ? (f.throughputFit ? '' : NO_KNEE) : f.kneeX], ['knee 95 %', f => f.kneeLower95 == null ? '' : `${num(f.kneeLower95)}–${num(f.kneeUpper95)}`],
      ['cliff', f => f.cliff ? 'yes' : ''], ['ceiling', f => f.capacity == null ? '' : qty(f.metric, f.capacity)], ['safe x at margin', f => lineLoad(f.safeCapacityX, detail.testedToX), true],
      ['bottleneck', f => f.bottleneck ? 'yes' : '']], detail.fits, () => '', 'No fit: a fit needs 3 steps with readings of one metric.') +
    // said once: under the capacity table, else under the fits
    beyondTestedNote(!capacityMarked && detail.fits.some(f => Figures.beyondTested(f.safeCapacityX, detail.testedToX))) +
    '<div id="endpoints-section"></div>' +
    `<h2 id="alerts">Alerts (${detail.alerts.length})</h2>` + table([['at', a => Figures.time(a.at)], ['kind', a => Figures.alertKind(a.kind)],
      ['step', a => a.stepIndex], ['message', a => a.message]], detail.alerts, () => '', 'No alerts.');
  // no chart without a point to draw: one sentence says what would fill it
  const noFit = resourceFitMissing(run, aggregates, fit);
  if (noFit) document.getElementById('fit-chart').outerHTML = `<p class="note" id="no-resource-fit">${esc(noFit)}</p>`;
  else fitChart('fit-chart', fit, points);
  if (aggregates.some(a => a.x != null && CPU_OR_EGRESS.includes(a.metric))) {
    cpuEgressChart('cpu-egress-chart', run, aggregates, detail.fits, detail.egressCeiling, bn);
  } else document.getElementById('cpu-egress-chart').remove();
  if (hasThroughput) throughputChart('throughput-chart', throughput);
  await endpointsSection(document.getElementById('endpoints-section'), id);
  await deleteControl(run.runId);
  await liveStart(run.runId, run.loadExpression, route); // live.js: polls while the run is RUNNING
  view.dataset.ready = 'run';
}

/**
 * The run's per-endpoint and error tables (GET /runs/{id}/endpoints): the whole run, then each step's steady part;
 * every figure from the tool's per-endpoint rows, never its total row.
 */
/** The run's delete button, offered only to a token that holds the write scope, and asked for confirmation. */
async function deleteControl(runId) {
  const access = await api('api/v1/access').catch(() => ({ scopes: [] }));
  if (!(access.scopes || []).includes('write')) return;
  const control = document.createElement('p');
  control.className = 'delete-run';
  control.innerHTML = '<button id="delete-run" type="button">Delete this run</button> <span class="note">it leaves '
    + 'every list, comparison, history, plan and report, also after a rebuild, and its rows leave the store</span>';
  view.querySelector('h1').after(control);
  document.getElementById('delete-run').addEventListener('click', async () => {
    if (!confirm(`Delete run ${runId}? It leaves every list, comparison, history, plan and report.`)) return;
    try {
      const deleted = await api(`api/v1/runs/${encodeURIComponent(runId)}`, { method: 'DELETE' });
      liveStop();
      view.innerHTML = `<div class="notice" id="deleted-notice">Run ${esc(runId)} was deleted at `
        + `${esc(Figures.time(deleted.deletedAt))}. <a href="#/">Back to the runs</a></div>`;
      view.dataset.ready = 'deleted';
    } catch (e) {
      control.insertAdjacentHTML('beforeend', `<div class="error">${esc(e.message)}</div>`);
    }
  });
}

async function endpointsSection(el, id) {
  const e = await api(`api/v1/runs/${id}/endpoints`);
  if (!e.endpoints.length && !e.errors.length) {
    el.innerHTML = '<h2>Endpoints</h2><p class="note" id="no-endpoints">The load tool sent no per-endpoint rows.</p>';
    return;
  }
  const endpointColumns = [['name', r => r.name], ['method', r => r.method], ['status', r => r.status],
    ['requests', r => r.requests], ['requests/s', r => r.requestsPerSecond],
    ['failures', r => r.failures], ['errors', r => Figures.percent(r.errorRatio)],
    ['p50 (ms)', r => r.p50Ms], ['p95 (ms)', r => r.p95Ms], ['p99 (ms)', r => r.p99Ms],
    ['from', r => r.how]];
  const errorColumns = [['name', r => r.name], ['method', r => r.method], ['status', r => r.status],
    ['message', r => r.message], ['occurrences', r => r.occurrences]];
  const failed = rows => rows.reduce((n, r) => n + (r.failures || 0), 0);
  // a tool may count failures per endpoint without saying why in every step (Locust's _failures.csv is run totals)
  const errors = (rows, endpoints) => rows.length ? table(errorColumns, rows) : failed(endpoints)
    ? `<p class="note">${num(failed(endpoints))} failed requests; the tool sent no status or message for them here.</p>`
    : '<p class="note">No failed requests.</p>';
  el.innerHTML = '<h2 id="endpoints">Endpoints (whole run)</h2>' + table(endpointColumns, e.endpoints, r => r.failures ? 'failing' : '')
    + '<h2 id="errors">Errors (whole run)</h2>' + errors(e.errors, e.endpoints)
    + '<h3>Per step (steady part, warm-up excluded)</h3>' + e.steps.map(s => `<details class="step-endpoints" data-step="${s.stepIndex}"${e.steps.length <= 5 ? ' open' : ''}>
      <summary>step ${s.stepIndex} · ${esc(loadText(s.load))} · ${num(s.endpoints.reduce((n, r) => n + (r.requests || 0), 0))} requests,
        ${num(failed(s.endpoints))} failed</summary>`
      + table(endpointColumns, s.endpoints, r => r.failures ? 'failing' : '') + errors(s.errors, s.endpoints) + '</details>').join('');
}

/** The choice with the most runs (ties: the first listed). */
const mostRuns = choices => choices.reduce((best, c) => best == null || c.runs > best.runs ? c : best, null);

/** One system at a time (by default the one with the most runs), or every system side by side, cohort by cohort. */
async function comparePage(params) {
  const groupBy = params.get('groupBy') || 'provider';
  const across = params.get('acrossSystems') === 'true';
  const known = await api('api/v1/run-choices');
  const busiest = mostRuns(known.systems);
  const sut = params.get('sut') || (across || !busiest ? null : busiest.value);
  const query = `groupBy=${encodeURIComponent(groupBy)}` + (sut ? `&sut=${encodeURIComponent(sut)}` : '')
    + (across ? '&acrossSystems=true' : '');
  const c = await api(`api/v1/compare?${query}`);
  const systems = known.systems.map(c => c.value);
  const link = (label, q, current) => current ? `<b>${esc(label)}</b>` : `<a href="#/compare?${q}">${esc(label)}</a>`;
  const scopeQuery = across ? '&acrossSystems=true' : c.sut ? `&sut=${encodeURIComponent(c.sut)}` : '';
  view.innerHTML = `<h1>Compare by ${esc(c.groupBy)}${c.sut ? ' — ' + esc(c.sut) : ''}</h1>
    <p id="compare-systems">system ${systems.map(s => link(s, `groupBy=${encodeURIComponent(groupBy)}&sut=${encodeURIComponent(s)}`,
      !across && s === c.sut)).join(' · ')} · ${link('each system separately', `groupBy=${encodeURIComponent(groupBy)}&acrossSystems=true`, across)}</p>
    <p>group by ${link('provider', 'groupBy=provider' + scopeQuery, groupBy === 'provider')} · ${link('tier', 'groupBy=tier' + scopeQuery, groupBy === 'tier')}</p>
    <p class="scope">${esc(c.scope)}; provider and tier claims are drawn only between runs of one system under one load expression.</p>
    ${c.warnings.map(w => `<div class="warning">⚠ ${esc(w)}</div>`).join('')}` + c.cohorts.map((k, i) => {
      const rows = c.rows.filter(r => k.runIds.includes(r.runId));
      return (c.cohorts.length > 1 ? `<h2>${esc(k.sutName)} · load ${esc(k.loadExpression)}</h2>` : '')
        + (measuredLoads(rows) ? `<div id="${i === 0 ? 'compare-chart' : 'compare-chart-' + i}" class="chart"></div>`
          : `<p class="note no-measured-loads">No run here has a max stable or first failing load (no step was judged against the run's rules, or none passed), so there is nothing measured to draw; the table gives each run's fitted line.</p>`)
        + table([
        [c.groupBy, r => r.group], ['run', r => `<a href="#/run/${encodeURIComponent(r.runId)}">${esc(r.runId)}</a>`, true],
        ['tier', r => r.tier], ['vCPU', r => r.vcpu], ['egress measured', r => r.measuredEgressMbps == null ? '' : Figures.mbps(r.measuredEgressMbps)],
        ['max stable x', r => r.maxStableX], ['failed at x', r => r.failedX], ['metric', r => r.metric],
        ['base', r => r.baseline == null ? '' : qty(r.metric, r.baseline)], ['slope per x', r => r.slopePerX == null ? '' : qty(r.metric, r.slopePerX)],
        ['knee x', r => r.kneeX], ['cliff', r => r.cliff ? 'yes' : ''],
        ['bottleneck', r => r.bottleneck], ['safe x', r => lineLoad(r.safeCapacityX, r.testedToX), true]], rows)
        // the chart draws measured loads only; a safe x is a straight line's and may lie beyond them: said here
        + (rows.some(r => Figures.beyondTested(r.safeCapacityX, r.testedToX))
          ? `<p class="note beyond-tested-note">${measuredLoads(rows) ? 'The chart draws measured loads only (max stable and first failing, no extrapolation); in the table, ' : ''}${esc(Figures.beyondTestedNote())}</p>` : '')
        + [...new Set(rows.map(r => r.bottleneckRule).filter(Boolean))].map(rule =>
          `<p class="note">${esc(rows.filter(r => r.bottleneckRule === rule).map(r => r.runId).join(', '))}: the bottleneck is named because ${esc(Figures.rule(rule))}.</p>`).join('');
    }).join('');
  c.cohorts.forEach((k, i) => {
    const rows = c.rows.filter(r => k.runIds.includes(r.runId));
    const id = i === 0 ? 'compare-chart' : 'compare-chart-' + i;
    if (!measuredLoads(rows)) return;
    if (rows.length > PER_RUN_BARS) {
      compareGroupsChart(id, k, rows);
      return;
    }
    chart(id).setOption({
      title: { text: `max stable ${k.loadExpression}, measured per run of ${k.sutName} (no extrapolation)`, left: 'center' },
      tooltip: {}, legend: { bottom: 0 },
      // a bar per run: few bars carry their group, tier and run; more carry the run, slanted so none overlaps
      xAxis: { type: 'category', data: rows.map(r => rows.length > 6 ? r.runId : `${r.group} · ${r.tier}\n${r.runId}`),
        axisLabel: { interval: 0, margin: 12, lineHeight: 16, rotate: rows.length > 6 ? 35 : 0, fontSize: rows.length > 6 ? 10 : 12 } },
      yAxis: Object.assign({ type: 'value' }, yAxisName(k.loadExpression)),
      grid: { left: 100, right: 40, bottom: rows.length > 6 ? 190 : 90 },
      series: [{ type: 'bar', name: 'max stable x', data: rows.map(r => r.maxStableX), label: { show: true, position: 'top' } },
        ...(rows.some(r => r.failedX != null) ? [{ type: 'bar', name: 'first failing x', data: rows.map(r => r.failedX) }] : [])] });
  });
  view.dataset.ready = 'compare';
}

/** Whether any run of a cohort has a load the compare chart draws (max stable or first failing). */
const measuredLoads = rows => rows.some(r => r.maxStableX != null || r.failedX != null);

/** Above this many runs in a cohort, compare draws a bar per group and tier (the runs' median) instead of per run. */
const PER_RUN_BARS = 12;

/**
 * Many runs of a cohort: one bar per group and tier at the median of its runs' max stable (and first failing)
 * load, labelled with how many runs it stands for; the tooltip gives the range. Medians, not means: one aborted run
 * should not move a tier's bar.
 */
function compareGroupsChart(id, cohort, rows) {
  const median = xs => { const v = xs.filter(x => x != null).sort((a, b) => a - b);
    return v.length ? (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : null; };
  const groups = new Map();
  rows.forEach(r => { const key = `${r.group} · ${r.tier}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r); });
  const keys = [...groups.keys()].sort();
  const range = (runs, f) => { const v = runs.map(f).filter(x => x != null);
    return v.length ? `${num(Math.min(...v))}–${num(Math.max(...v))}` : 'none'; };
  chart(id).setOption({
    title: { text: `max stable ${cohort.loadExpression} of ${cohort.sutName}: median of each group's runs (no extrapolation)`,
      left: 'center' },
    tooltip: { trigger: 'axis', formatter: ps => { const runs = groups.get(keys[ps[0].dataIndex]);
      return `${esc(keys[ps[0].dataIndex])}: ${runs.length} runs<br>max stable ${range(runs, r => r.maxStableX)}`
        + `<br>first failing ${range(runs, r => r.failedX)}`; } },
    legend: { bottom: 0 },
    xAxis: { type: 'category', data: keys.map(key => `${key}\n${groups.get(key).length} runs`),
      axisLabel: { interval: 0, margin: 12, lineHeight: 16, rotate: keys.length > 6 ? 35 : 0 } },
    yAxis: Object.assign({ type: 'value' }, yAxisName(cohort.loadExpression)),
    grid: { left: 100, right: 40, bottom: keys.length > 6 ? 190 : 90 },
    series: [{ type: 'bar', name: 'max stable x (median)', data: keys.map(key => median(groups.get(key).map(r => r.maxStableX))),
      label: { show: true, position: 'top' } },
      ...(rows.some(r => r.failedX != null) ? [{ type: 'bar', name: 'first failing x (median)',
        data: keys.map(key => median(groups.get(key).map(r => r.failedX))) }] : [])] });
}

/** A cohort's history: each series against run start time, versions labelled, change points marked. */
async function historyPage(params) {
  const known = await api('api/v1/run-choices');
  const keys = ['sut', 'tier', 'tool', 'loadExpression', 'metric'];
  const chosen = Object.fromEntries(keys.map(k => [k, params.get(k) || '']));
  let noCohort = false;
  if (!keys.some(k => chosen[k])) {
    // opens on the largest cohort (one system, tier, tool and load expression), of the system with the most runs
    // when cohorts tie; a history needs two runs at least
    const systemRuns = new Map(known.systems.map(c => [c.value, c.runs]));
    const cohort = [...known.cohorts].sort((a, b) => b.runs - a.runs || systemRuns.get(b.sut) - systemRuns.get(a.sut))[0];
    if (cohort && cohort.runs >= 2) {
      const { sut, tier, tool, loadExpression } = cohort;
      Object.assign(chosen, { sut, tier, tool, loadExpression });
    } else noCohort = true;
  }
  const options = k => known[CHOICES[k]].map(c => c.value);
  const labels = { sut: 'system', tier: 'tier', tool: 'tool', loadExpression: 'load' };
  const select = k => `<label>${labels[k]} <select name="${k}"><option value="">(any)</option>${options(k).map(v =>
    `<option${v === chosen[k] ? ' selected' : ''}>${esc(v)}</option>`).join('')}</select></label>`;
  view.innerHTML = `<h1>History across runs</h1>
    <form id="history-form">${['sut', 'tier', 'tool', 'loadExpression'].map(select).join('')}
      <label>metric <input name="metric" value="${esc(chosen.metric)}" placeholder="bottleneck"></label>
      <button type="submit">Show</button></form><div id="history-result"></div>`;
  document.getElementById('history-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    if (!f.get('sut')) {
      document.getElementById('history-result').innerHTML = '<div class="error" id="history-missing">Choose a '
        + '<b>system</b> (the system under test): a history follows the runs of one system.</div>';
      return;
    }
    location.hash = '#/history?' + keys.filter(k => f.get(k)).map(k => `${k}=${encodeURIComponent(f.get(k))}`).join('&');
  });
  const query = keys.filter(k => chosen[k]).map(k => `${k}=${encodeURIComponent(chosen[k])}`).join('&');
  if (!query) {
    if (noCohort) document.getElementById('history-result').innerHTML = '<p class="note" id="history-none">No cohort '
      + 'has two runs yet: a history follows runs of one system on one tier, with one tool under one load expression. '
      + 'Choose a <b>system</b> to see what its runs have in common.</p>';
    view.dataset.ready = 'history';
    return;
  }
  const out = document.getElementById('history-result');
  let h;
  try { h = await api(`api/v1/history?${query}`); } catch (e) {
    out.innerHTML = `<div class="error">${esc(e.message)}</div>`;
    view.dataset.ready = 'history-error';
    return;
  }
  out.innerHTML = `<p class="scope">${esc(h.scope)}; slope and knee of <b>${esc(h.metric)}</b> (${esc(h.metricChosenBy)});
    changes by ${esc(h.changeModel)} at p &lt; 0.001.</p>
    ${h.warnings.map(w => `<div class="warning">⚠ ${esc(w)}</div>`).join('')}` +
    // a series no run has a value of is said in one line (its warning says why), not drawn as an empty chart
    h.series.map((s, i) => s.points.some(p => p.value != null) ? `<div id="history-chart-${i}" class="chart"></div>`
      : `<p class="note history-empty">${esc(s.label)}${s.resource ? ' of ' + esc(s.resource) : ''}: no run of this cohort has one.</p>`).join('') +
    `<h2>Change points</h2>` + table([['series', c => c.series], ['first run of the new regime', c => `<a href="#/run/${encodeURIComponent(c.runId)}">${esc(c.runId)}</a>`, true],
      ['version', c => c.sutVersion], ['started', c => Figures.time(c.startedAt)], ['mean before', c => c.meanBefore],
      ['mean after', c => c.meanAfter], ['change', c => c.changePercent == null ? '' : num(c.changePercent) + ' %'], ['p-value', c => Figures.pValue(c.pValue)]],
      h.series.flatMap(s => s.changePoints.map(c => Object.assign({ series: s.label }, c))), () => '',
      'No change point: every series stayed within its noise across these runs.');
  h.series.forEach((s, i) => {
    const pts = s.points.filter(p => p.value != null);
    if (!pts.length) return;
    chart(`history-chart-${i}`).setOption({
      title: { text: `${s.label}${s.resource ? ' of ' + s.resource : ''} per run`, left: 'center' },
      tooltip: { trigger: 'item', formatter: p => `${esc(p.data.runId)}${given(p.data.sutVersion, ` (${esc(p.data.sutVersion)})`)}<br>${esc(p.data.value[0])}<br>${num(p.data.value[1])}` },
      legend: { bottom: 0 },
      xAxis: Object.assign({ type: 'time',
        // ECharts writes a new day as its bare number ("5"); a date says it
        axisLabel: { hideOverlap: true, formatter: { year: '{yyyy}', month: '{MMM} {yyyy}', day: '{d} {MMM}', hour: '{HH}:{mm}', minute: '{HH}:{mm}' } } },
        xAxisName('run start')), grid: { left: 100, bottom: 70 },
      yAxis: Object.assign({ type: 'value', scale: true }, yAxisName(s.label)),
      series: [{ type: 'line', name: s.label, symbolSize: 9,
        data: pts.map((p, j) => ({ value: [p.startedAt, p.value], runId: p.runId, sutVersion: p.sutVersion,
          itemStyle: p.changePoint ? { color: '#c00' } : undefined,
          // the version where it starts: one label per version, not one per run
          label: { show: j === 0 || p.sutVersion !== pts[j - 1].sutVersion, position: 'top', formatter: p.sutVersion || '' } })),
        markLine: { symbol: 'none', lineStyle: { color: '#c00', type: 'dashed' },
          data: s.changePoints.map(c => ({ xAxis: c.startedAt,
            label: { formatter: `change: ${c.sutVersion || c.runId} (${num(c.changePercent)} %)` } })) } }] });
  });
  view.dataset.ready = 'history';
}

/**
 * Marks the one field a form cannot run without and says what to choose there (a field is the element whose
 * data-field names it); without a field, clears every mark.
 */
function fieldHint(form, field, text) {
  form.querySelectorAll('.hint').forEach(h => h.remove());
  form.querySelectorAll('.needs').forEach(l => l.classList.remove('needs'));
  const target = field && form.querySelector(`[data-field="${field}"]`);
  if (!target) return false;
  target.classList.add('needs');
  target.insertAdjacentHTML('beforeend', `<span class="hint" id="hint-${field}">${esc(text)}</span>`);
  return true;
}

// the plan form's field for each request parameter a refused plan names (problem+json "parameter")
const PLAN_FIELDS = { sut: 'sut', tiers: 'tiers', runIds: 'tiers', profile: 'load', 'profile.load': 'load', margin: 'margin' };

/**
 * The load a plan opens at for {@code sut}: the max stable load of its newest run that has one (the load it was last
 * seen to hold), with that run; null when no recent run of it has one.
 */
async function defaultPlanLoad(sut) {
  if (!sut) return null;
  const runs = await api(`api/v1/runs?sut=${encodeURIComponent(sut)}&sort=startedAt&order=desc&limit=${PAGE}`);
  return runs.find(r => r.maxStableX != null) || null;
}

/**
 * A workload placed on one system's measured tiers: the system the address names (#/plan?sut=…), else the one with
 * the most runs, and all its tiers, at the load its newest judged run held, planned at once; the page says where that
 * load came from and what to enter to change it.
 */
async function planPage(params) {
  const known = await api('api/v1/run-choices');
  // the system the address names (#/plan?sut=…), else the one with the most runs
  const busiest = known.systems.find(c => c.value === params.get('sut')) || mostRuns(known.systems);
  const tiersOf = sut => [...new Set(known.cohorts.filter(c => c.sut === sut && c.tier).map(c => c.tier))].sort();
  const tierBoxes = sut => tiersOf(sut).map(t => `<label><input type="checkbox" name="tier" value="${esc(t)}" checked> ${esc(t)}</label>`).join('')
    || '<span class="note">no run of this system names its tier</span>';
  view.innerHTML = `<h1>Capacity planner</h1>
    <form id="plan-form">
      <label data-field="sut">system <select name="sut"><option value="">(choose)</option>${known.systems.map(c =>
        `<option${busiest && c.value === busiest.value ? ' selected' : ''}>${esc(c.value)}</option>`).join('')}</select></label>
      <label>profile <input name="name" value="planned load"></label>
      <span data-field="load"><label><span id="plan-load-name">load (x)</span> <input name="load" type="number" step="any"></label>
      <span id="plan-rooms"><label>rooms <input name="rooms" type="number" value="2"></label>
      <label>participants <input name="participants" type="number" value="10"></label>
      <label>cameras <input name="cameras" type="number" value="4"></label></span></span>
      <label data-field="margin">margin <input name="margin" type="number" step="0.05" value="0.6"></label><br>
      <span data-field="tiers">tiers <span id="plan-tiers">${busiest ? tierBoxes(busiest.value) : ''}</span></span>
      <button type="submit">Plan</button>
    </form><p class="note" id="plan-default"></p><div id="plan-result"></div>`;
  const form = document.getElementById('plan-form');
  // the load is asked in the system's own terms: its load expression; a room profile only where the expression is
  // made of rooms' participants and cameras (a meeting system), never for users or requests
  const loadFields = sut => {
    const expressions = [...new Set(known.cohorts.filter(c => c.sut === sut && c.loadExpression).map(c => c.loadExpression))];
    const rooms = expressions.some(e => /participants|cameras/.test(e));
    document.getElementById('plan-load-name').textContent = expressions.length ? `load (${expressions.join(' or ')})` : 'load (x)';
    document.getElementById('plan-rooms').hidden = !rooms;
    form.elements.load.placeholder = rooms ? 'or rooms below' : '';
    if (form.elements.name.value === 'planned load' || form.elements.name.value === 'large meeting') {
      form.elements.name.value = rooms ? 'large meeting' : 'planned load';
    }
  };
  loadFields(form.elements.sut.value);
  // the load the system's newest judged run held fills the load field and is planned at once; without one, the
  // page says what to enter
  const openAtDefault = async () => {
    const sut = form.elements.sut.value;
    const run = await defaultPlanLoad(sut);
    const say = document.getElementById('plan-default');
    const unit = document.getElementById('plan-load-name').textContent.replace(/^load \(|\)$/g, '');
    const rooms = !document.getElementById('plan-rooms').hidden;
    const change = `Enter another load${rooms ? ', or rooms, participants and cameras,' : ''} and press Plan to plan for it.`;
    if (!run) {
      form.elements.load.value = '';
      const none = `No run of ${sut} has a max stable load to plan at (no step of its runs has passed its SLO rules yet, `
        + 'or they declared none)';
      // a meeting system still has a profile to show at once: the rooms the form offers
      say.textContent = !sut ? '' : rooms ? `${none}: planned for the rooms below (${form.elements.rooms.value} rooms of `
        + `${form.elements.participants.value} participants, ${form.elements.cameras.value} of them on camera). Enter a load `
        + `(${unit}) or other rooms and press Plan to change it.`
        : `${none}: enter the load to plan for (${unit}) and press Plan.`;
      return Boolean(sut) && rooms;
    }
    form.elements.load.value = run.maxStableX;
    say.innerHTML = `Planned at <b id="plan-default-load">${esc(unit)} = ${num(run.maxStableX)}</b>, the max stable load `
      + `of <a href="#/run/${encodeURIComponent(run.runId)}">${esc(run.runId)}</a>, the newest run of ${esc(sut)} that `
      + `has one. ${esc(change)}`;
    return true;
  };
  form.elements.sut.addEventListener('change', async () => {
    document.getElementById('plan-tiers').innerHTML = form.elements.sut.value ? tierBoxes(form.elements.sut.value) : '';
    loadFields(form.elements.sut.value);
    fieldHint(form);
    document.getElementById('plan-result').innerHTML = '';
    if (await openAtDefault()) await plan();
  });
  const plan = async () => {
    delete view.dataset.ready;
    const f = new FormData(form);
    const n = k => f.get(k) === '' ? null : Number(f.get(k));
    const profile = { name: f.get('name') };
    const rooms = !document.getElementById('plan-rooms').hidden;
    if (f.get('load') !== '' || !rooms) profile.load = n('load');
    else Object.assign(profile, { rooms: n('rooms'), participants: n('participants'), cameras: n('cameras') });
    const out = document.getElementById('plan-result');
    // what the planner cannot run without, named at its field before anything is asked
    const missing = !f.get('sut') ? ['sut', known.systems.length ? 'choose a system: a plan places the load on one system\'s measured tiers'
        : 'no run is stored yet: send a run first']
      : !f.getAll('tier').length ? ['tiers', 'choose at least one tier to place the load on']
      : f.get('load') === '' && (!rooms || ['rooms', 'participants', 'cameras'].some(k => f.get(k) === ''))
        ? ['load', rooms ? 'give a load (x), or rooms, participants and cameras' : 'give the load to plan for'] : null;
    fieldHint(form, ...(missing || []));
    if (missing) {
      out.innerHTML = `<div class="error" id="plan-missing">The plan cannot run yet: ${esc(missing[1])}.</div>`;
      view.dataset.ready = 'plan-missing';
      return;
    }
    try {
      const placed = await api('api/v1/plans', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ profile, sut: f.get('sut'), tiers: f.getAll('tier'), margin: n('margin') }) });
      out.innerHTML = `<h2>${esc(placed.profile)}: load ${num(placed.load)} at a planning margin of ${Figures.percent(placed.margin)}</h2>` +
        placed.warnings.map(w => `<div class="warning">⚠ ${esc(w)}</div>`).join('') + table([
          ['tier', t => t.tier], ['provider', t => declared(t.provider, 'provider')], ['run', t => t.runId],
          ['fit', t => `<span class="badge ${esc(t.fit)}" data-fit="${esc(t.fit)}">${esc(Figures.planFit(t.fit))}</span>`, true], ['bottleneck', t => t.bottleneck],
          ['safe load', t => lineLoad(t.safeLoad, t.testedToX), true], ['full-ceiling load', t => lineLoad(t.fullCeilingLoad, t.testedToX), true],
          ['headroom', t => t.headroomX < 0 ? `${num(-t.headroomX)} short` : `${num(t.headroomX)} to spare`],
          ['resources needed', t => t.resources.map(r => `${r.resource}: ${qty(r.resource, r.needed)} of ${qty(r.resource, r.ceiling)} (${Figures.percent(r.utilisation)})`).join('; ')]],
          placed.tiers, () => '', 'No tier could be planned: the warning above says why of each run.') +
        beyondTestedNote(placed.tiers.some(t => Figures.beyondTested(t.safeLoad, t.testedToX)
          || Figures.beyondTested(t.fullCeilingLoad, t.testedToX)));
      view.dataset.ready = 'plan-result';
    } catch (e) {
      // a refused plan names its parameter: the hint goes to that field (a tier without a run: to the tiers)
      fieldHint(form, PLAN_FIELDS[e.parameter] || (e.status === 404 ? 'tiers' : null), e.detail || e.message);
      out.innerHTML = `<div class="error">${esc(e.message)}</div>`;
      view.dataset.ready = 'plan-error';
    }
  };
  form.addEventListener('submit', ev => { ev.preventDefault(); plan(); });
  if (await openAtDefault()) await plan();
  else view.dataset.ready = 'plan';
}

async function route() {
  charts.splice(0).forEach(c => c.dispose());
  delete view.dataset.ready;
  const [path, query] = (location.hash.slice(1) || '/').split('?');
  const params = new URLSearchParams(query || '');
  try {
    if (path.startsWith('/run/')) await runPage(decodeURIComponent(path.slice(5)));
    else if (path === '/compare') await comparePage(params);
    else if (path === '/history') await historyPage(params);
    else if (path === '/plan') await planPage(params);
    else await runList(params);
  } catch (e) {
    view.innerHTML = `<div class="error">${esc(e.message)}</div>`;
    view.dataset.ready = 'error';
  }
}
window.addEventListener('hashchange', route);
window.addEventListener('resize', () => charts.forEach(c => c.resize()));
route();
