// caplab web page, live section: a run's status and time series, refreshed by polling while it is RUNNING.
// Loaded before app.js; uses its api(), esc(), chart() and view at call time. Polling, not server-sent events: a poll
// carries the page's token in its Authorization header (EventSource cannot send one) and any API instance answers it.
'use strict';

const LIVE_POLL_MS = 2000;
let liveTimer = null;
let liveGeneration = 0;

/** Stops polling (a new page, or the run has ended). */
function liveStop() {
  liveGeneration++;
  if (liveTimer) clearTimeout(liveTimer);
  liveTimer = null;
}
window.addEventListener('hashchange', liveStop);

/** A duration in seconds as "45 s", "3 min 25 s", "2 h 5 min", "24 h". */
function liveDuration(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ' ' + (s % 60) + ' s' : ''}`;
  const m = Math.floor(s / 60) % 60;
  return `${Math.floor(s / 3600)} h${m ? ' ' + m + ' min' : ''}`;
}

/** A time as the browser's local clock time, with the date when it is not today. */
function liveTime(iso) {
  if (!iso) return '–';
  const t = new Date(iso);
  const sameDay = t.toDateString() === new Date().toDateString();
  return (sameDay ? '' : t.toLocaleDateString('en-CA') + ' ') + t.toLocaleTimeString('en-GB');
}

/** The load of a step as its dimensions ("users = 20"), else its x. */
function liveLoad(step, loadExpression) {
  const dims = Object.entries(step.load || {});
  if (dims.length) return dims.map(([k, v]) => `${k} = ${Figures.number(v)}`).join(', ');
  return step.x == null ? '–' : `${loadExpression || 'x'} = ${Figures.number(step.x)}`;
}

/** A step's status as the API decides it; a pending one is running, or closing once it ended. */
function liveVerdict(s) {
  if (s.status === 'pending') return s.endedAt ? 'closing' : 'running';
  return s.status === 'fail' ? 'FAIL' : s.status;
}

/** How and when the run ends, in one sentence. */
function liveEndText(live) {
  const e = live.end;
  if (e.by === 'ENDED') return `Ended at ${liveTime(e.endedAt)}, after ${liveDuration(live.elapsedSeconds)}.`;
  const idle = liveDuration(e.idleEndSeconds);
  const inSeconds = (Date.parse(e.idleEndsAt) - Date.parse(live.now)) / 1000;
  const when = inSeconds > 0 ? `at about ${liveTime(e.idleEndsAt)} (in ${liveDuration(inSeconds)})`
    : 'as soon as caplab notices no more samples arrive';
  if (e.by === 'IDLE') {
    return `Started by its samples: caplab ends this run ${idle} after its last sample, ${when}, unless more samples come.`;
  }
  return `Ends when its client sends the run end (caplab run end, or POST /api/v1/runs/{id}/end); `
    + `without one, caplab ends it ${idle} after its last sample, ${when}.`;
}

/** The live panel's markup for the run page; filled by liveStart. */
function livePanel() {
  return `<section id="live-panel" class="live"><h2 id="live-title">Live</h2>
    <p class="facts" id="live-facts"></p><p id="live-end"></p><p id="live-steps" class="live-steps"></p>
    <div id="live-traffic-chart" class="chart live-chart"></div><div id="live-latency-chart" class="chart live-chart"></div>
    <p id="live-latency-none" class="note" hidden></p>
    </section>`;
}

/**
 * Fills the live panel and, while the run is RUNNING, polls it every 2 s. A step that starts or closes, or the run's
 * end, redraws the whole run page (`rerender`), so its tables and conclusion follow without a reload.
 */
async function liveStart(runId, loadExpression, rerender) {
  liveStop();
  const generation = liveGeneration;
  const id = encodeURIComponent(runId);
  const traffic = chart('live-traffic-chart');
  const latency = chart('live-latency-chart');
  let signature = null;
  const poll = async () => {
    let live, timeline;
    try {
      [live, timeline] = await Promise.all([api(`api/v1/runs/${id}/live`), api(`api/v1/runs/${id}/timeline`)]);
    } catch (e) {
      if (generation !== liveGeneration) return;
      document.getElementById('live-end').innerHTML = `<span class="error">live update failed: ${esc(e.message)}; retrying</span>`;
      liveTimer = setTimeout(poll, LIVE_POLL_MS);
      return;
    }
    if (generation !== liveGeneration) return;
    const next = live.status + '|' + live.steps.map(s => `${s.stepIndex}:${s.endedAt}:${s.passed}:${s.judged}`).join(',');
    if (signature != null && next !== signature) {
      liveStop();
      await rerender();
      return;
    }
    signature = next;
    liveRender(live, timeline, loadExpression, traffic, latency);
    if (live.status === 'RUNNING') liveTimer = setTimeout(poll, LIVE_POLL_MS);
  };
  await poll();
}

function liveRender(live, timeline, loadExpression, trafficChart, latencyChart) {
  const running = live.status === 'RUNNING';
  const step = live.currentStep;
  document.getElementById('live-title').innerHTML = running
    ? `Live <span class="live-dot" title="updates every ${LIVE_POLL_MS / 1000} s">●</span> running, updated ${liveTime(live.now)}`
    : 'Over time';
  // while the run runs, its newest bucket is still filling: neither drawn nor quoted
  const shown = running ? timeline.points.slice(0, -1) : timeline.points;
  const full = shown.filter(p => p.requestsPerSecond != null).pop();
  const latestLoad = shown.filter(p => p.load != null).pop();
  const bucket = `${timeline.bucketSeconds} s`;
  // a step inferred from the load level shows only once it closes: until then the samples say the load
  const openStep = step && !step.endedAt;
  const loadNow = running && !openStep && latestLoad && timeline.loadSource !== 'steps'
    ? `<span>load now <b id="live-load-now">${esc(timeline.loadSource)} = ${Figures.number(latestLoad.load)}</b>
      (the step it makes shows when it closes)</span>` : '';
  document.getElementById('live-facts').innerHTML = [
    `<span>${running ? 'running for' : 'ran for'} <b id="live-elapsed">${liveDuration(live.elapsedSeconds)}</b></span>`,
    loadNow,
    step ? `<span>${running && openStep ? 'current step' : 'last step'} <b id="live-step">${step.stepIndex}</b>
      at <b id="live-load">${esc(liveLoad(step, loadExpression))}</b>${step.elapsedSeconds != null
      ? ` for ${liveDuration(step.elapsedSeconds)}` : ''}</span>` : '<span id="live-step">no step yet</span>',
    `<span>samples <b id="live-sample-rate">${Figures.number(live.samplesPerSecond)}/s</b> over the last ${live.rateWindowSeconds} s
      of sample time (${live.samples.toLocaleString('en')} in all)</span>`,
    `<span>last sample <b id="live-last-sample">${liveTime(live.lastSampleAt)}</b></span>`,
    full && full.requestsPerSecond != null ? `<span title="the last complete ${bucket} bucket">last ${bucket}:
      <b id="live-rps">${Figures.number(full.requestsPerSecond)} requests/s</b>,
      p95 <b id="live-p95">${full.latencyP95Ms == null ? 'not sent' : Figures.number(full.latencyP95Ms) + ' ms'}</b>,
      errors <b id="live-errors">${Figures.number(full.errorsPerSecond)}/s</b>${full.errorRatio == null ? ''
      : ` (${Figures.percent(full.errorRatio)})`}</span>` : ''].join('');
  document.getElementById('live-end').textContent = liveEndText(live);
  document.getElementById('live-steps').innerHTML = live.steps.length ? 'steps: ' + live.steps.map(s =>
    `<span class="live-step ${liveVerdict(s).replace(' ', '-').toLowerCase()}" data-step="${s.stepIndex}">${s.stepIndex}
      · ${esc(liveLoad(s, loadExpression))} · <b>${liveVerdict(s)}</b></span>`).join(' ') : '';
  const at = p => p.at;
  // each point holds for its whole bucket: drawn as steps from the bucket's start
  const line = (name, key, axis, color, scale = 1) => ({ type: 'line', name, yAxisIndex: axis, showSymbol: false, step: 'end',
    itemStyle: { color }, data: shown.filter(p => p[key] != null).map(p => [at(p), p[key] * scale]) });
  const axisName = (name, pad) => ({ type: 'value', name, nameGap: pad, axisLabel: { hideOverlap: true } });
  const common = { tooltip: { trigger: 'axis' }, legend: { bottom: 0 }, grid: { left: 70, right: 80, bottom: 60 },
    xAxis: { type: 'time', name: 'time', nameLocation: 'middle', nameGap: 28 } };
  trafficChart.setOption(Object.assign({}, common, {
    title: { text: `Load and requests/s over time (per ${bucket})`, left: 'center' },
    yAxis: [axisName(`load (${timeline.loadSource || 'none'})`, 12), axisName('requests/s', 12)],
    series: [line('load', 'load', 0, '#555'),
      line('requests/s', 'requestsPerSecond', 1, '#2f6fbf')] }), true);
  // a run without requests (only resources sampled) has no latency or errors to draw: one line says so instead
  const requests = shown.some(p => p.requestsPerSecond != null || p.latencyP95Ms != null);
  const latencyBox = document.getElementById('live-latency-chart');
  const none = document.getElementById('live-latency-none');
  // requests counted but no latency per window: the tool's percentiles, if any, are since its start (no window's)
  const p95s = shown.some(p => p.latencyP95Ms != null);
  none.hidden = requests && p95s;
  none.textContent = requests ? (p95s ? '' : `No p95 latency over time${running ? ' yet' : ''}: the load tool sent `
      + 'request counts but no per-request latency or percentiles per window (Locust writes those only with '
      + '--csv-full-history; its since-start percentiles describe no window). Errors are drawn below.')
    : timeline.requestSource == null
    ? 'No p95 latency or errors over time: this run\'s samples hold no requests (no per-request latency, request '
      + 'counter or load tool window).'
    : `No p95 latency or errors over time yet: no complete ${bucket} bucket of requests.`;
  const wasHidden = latencyBox.style.display === 'none';
  latencyBox.style.display = requests ? '' : 'none';
  if (!requests) return;
  if (wasHidden) latencyChart.resize();
  latencyChart.setOption(Object.assign({}, common, {
    title: { text: `p95 latency and errors over time (per ${bucket})`, left: 'center' },
    yAxis: [axisName('p95 latency (ms)', 12), axisName('errors/s', 12)],
    series: [line('p95 ms', 'latencyP95Ms', 0, '#d9822b'), line('errors/s', 'errorsPerSecond', 1, '#c33')] }), true);
}
