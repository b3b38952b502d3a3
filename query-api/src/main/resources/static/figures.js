// How caplab writes a figure for people, on the page; the report's dev.caplab.query.format.Figures writes the same
// figures the same way, and both are tested against one table of hand-written cases (figures-cases.json).
// Absent values (null, undefined, NaN) are "–"; callers leave out a phrase whose value is absent.
'use strict';
const Figures = (() => {
  const ABSENT = '–';
  const SI = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M']];
  const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  const absent = v => v == null || typeof v !== 'number' || !Number.isFinite(v);
  const group = digits => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

  /** toPrecision's digits written out in full (no exponent), trailing zeros of the fraction dropped. */
  function plain(v, significant) {
    const [mantissa, exp] = v.toPrecision(significant).split('e');
    let s = mantissa;
    if (exp !== undefined) {
      const e = Number(exp);
      const negative = s.startsWith('-');
      const digits = s.replace('-', '').replace('.', '');
      if (e < 0) s = '0.' + '0'.repeat(-e - 1) + digits;
      else s = digits.length > e + 1 ? digits.slice(0, e + 1) + '.' + digits.slice(e + 1) : digits + '0'.repeat(e + 1 - digits.length);
      if (negative) s = '-' + s;
    }
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return s === '-0' ? '0' : s;
  }

  /** Up to 1,000: four significant digits; to a million: whole and grouped; beyond: four digits and M, G, T, P. */
  function number(v) {
    if (absent(v)) return ABSENT;
    const abs = Math.abs(v);
    for (const [scale, prefix] of SI) {
      if (abs >= scale) return number(v / scale) + ' ' + prefix;
    }
    if (abs >= 1000) return (v < 0 ? '-' : '') + group(abs.toFixed(0));
    const s = plain(v, 4);
    const whole = s.replace('-', '').split('.')[0];
    return whole.length > 3 ? (v < 0 ? '-' : '') + group(whole) : s;
  }

  /** Bytes in binary units: "512 B", "1.5 KiB", "2.328 GiB". */
  function bytes(v) {
    if (absent(v)) return ABSENT;
    let i = 0;
    let scaled = v;
    while (Math.abs(scaled) >= 1024 && i < BINARY.length - 1) { scaled /= 1024; i++; }
    return (i === 0 ? number(Math.round(scaled)) : number(scaled)) + ' ' + BINARY[i];
  }

  const mbps = v => absent(v) ? ABSENT : number(v) + ' Mbit/s';
  /** Bytes per second in Mbit/s (8 bits a byte, 10⁶ bits a megabit), as analysis EgressCeilings.mbps converts. */
  const toMbps = bytesPerSecond => bytesPerSecond * 8 / 1e6;
  /** A rate in bytes per second as Mbit/s: every network rate caplab shows is in Mbit/s. */
  const bitrate = bytesPerSecond => absent(bytesPerSecond) ? ABSENT : mbps(toMbps(bytesPerSecond));
  /** A share (0–1) as a percentage. */
  const percent = share => absent(share) ? ABSENT : number(share * 100) + ' %';
  /** k6's per-request duration, named without a unit suffix by k6 itself; its values are milliseconds. */
  const K6_DURATION = 'http_req_duration';

  /** A p-value: "< 0.001" below it, else two significant digits. */
  const pValue = p => absent(p) ? ABSENT : p < 0.001 ? '< 0.001' : plain(p, 2);
  /** A standard error of a load: "< 0.001" below it (an exactly straight line leaves only rounding), else a number. */
  const standardError = se => absent(se) ? ABSENT : Math.abs(se) < 0.001 ? '< 0.001' : number(se);

  /** An instant (ISO-8601) to the second, in UTC: "2026-12-05 14:39:17 UTC". */
  const time = iso => iso == null || iso === '' ? ABSENT
    : String(iso).replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');

  /** An alert's kind in words: "step failed", "cliff detected", "step contaminated". */
  const alertKind = kind => kind == null ? ABSENT : String(kind).toLowerCase().replaceAll('_', ' ');

  /** A metric's value in the metric's own unit, known from its name (counters' values are rates per second). */
  function quantity(metric, v) {
    if (absent(v)) return ABSENT;
    const m = String(metric || '');
    if (m === K6_DURATION) return number(v) + ' ms';
    if (/^net\..*\.bytes$/.test(m)) return bitrate(v);
    if (/^block\..*\.bytes$/.test(m)) return bytes(v) + '/s';
    if (m.endsWith('.bytes')) return bytes(v);
    if (m.endsWith('.mbps')) return mbps(v);
    if (m.endsWith('.cores')) return number(v) === '1' ? '1 core' : number(v) + ' cores';
    if (m.endsWith('.percent')) return number(v) + ' %';
    if (m.endsWith('.ms')) return number(v) + ' ms';
    if (m.endsWith('.ratio')) return percent(v);
    if (m.endsWith('.per_s')) return number(v) + '/s';
    if (m.endsWith('.packets')) return number(v) + ' packets/s';
    return number(v);
  }

  /** Whether quantity() writes a metric's values in binary units (KiB, MiB, GiB): its axis ticks a power of two apart. */
  const binary = metric => String(metric || '').endsWith('.bytes') && !String(metric || '').startsWith('net.');

  /** The unit quantity() writes a metric's values in, for an axis name. */
  function unit(metric) {
    const m = String(metric || '');
    if (m === K6_DURATION) return 'ms';
    if (/^net\..*\.bytes$/.test(m) || m.endsWith('.mbps')) return 'Mbit/s';
    if (/^block\..*\.bytes$/.test(m)) return 'bytes/s';
    if (m.endsWith('.bytes')) return 'bytes';
    if (m.endsWith('.cores')) return 'cores';
    if (m.endsWith('.percent') || m.endsWith('.ratio')) return '%';
    if (m.endsWith('.ms')) return 'ms';
    if (m.endsWith('.per_s')) return 'per s';
    if (m.endsWith('.packets')) return 'packets/s';
    return '';
  }

  /** A straight line in the metric's unit against the load: "336.8 MiB + 5.2 MiB × sessions". */
  function formula(metric, intercept, slope, loadExpression) {
    if (absent(intercept) || absent(slope)) return ABSENT;
    const load = loadExpression ? (/^[\w.]+$/.test(loadExpression) ? loadExpression : `(${loadExpression})`) : 'x';
    return `${quantity(metric, intercept)} ${slope < 0 ? '−' : '+'} ${quantity(metric, Math.abs(slope))} × ${load}`;
  }

  const RULES = {
    SMALLEST_SAFE_CAPACITY: 'its fitted line reaches the planning margin at the smallest load',
    FIRST_STEP_OVER_MARGIN: 'it was the first to reach the planning margin in a measured step',
  };
  /** Why the bottleneck was named, as a clause. */
  const rule = r => r == null ? ABSENT : RULES[r] || String(r).toLowerCase().replace(/_/g, ' ');

  const FITS = {
    FITTING: 'fits within every planning margin',
    TIGHT: 'fits only past the planning margin, under the full ceilings',
    UNREACHABLE: 'does not fit, even at the full ceilings',
  };
  /** What a capacity plan says of a profile on a tier, as a clause. */
  const planFit = f => f == null ? ABSENT : FITS[f] || String(f).toLowerCase().replace(/_/g, ' ');

  /**
   * Whether a load a straight line gives (a safe x, a plan's safe load) lies beyond testedToX, the highest load the run
   * tested: the line extrapolated past every measured step, not a load the system was seen to hold.
   */
  const beyondTested = (x, testedToX) => !absent(x) && !absent(testedToX) && x > testedToX;
  /** A load a straight line gives: "≈ 172.4 (beyond the tested 19)" when beyondTested, else the number. */
  const safeX = (x, testedToX) => beyondTested(x, testedToX)
    ? `≈ ${number(x)} (beyond the tested ${number(testedToX)})` : number(x);
  /** What the mark of safeX means: said under a table or sentence that shows one. */
  const beyondTestedNote = () => '≈ marks a load beyond the highest load the run tested: the straight line through its steps extrapolated, not a load the system was seen to hold.';

  /** What a run whose steps hold no reading of any resource (only the load tool's) lacks and what to send for it. */
  const noResourceReadings = runId => `this run holds only the load tool's readings, no CPU, memory or network of the system under test. Run a host sampler (caplab sample --run ${runId}) on the server, or send its node_exporter, docker stats or process-exporter readings beside the load, to see what runs out first and get a capacity plan.`;

  /** Why a resource's capacity line and its fit's base and slope may differ: said wherever both are shown. */
  const capacityVersusFit = () => 'Capacity (safe x) uses the straight line through the steps below the knee or cliff (all steps when there is none); a fit\'s base and slope are the fitted model\'s first segment, the same line only when no knee stands, so with a knee the two differ. A knee stands only when Davies\' test says p < 0.05, its 95 % interval lies within the tested loads and the slope rises.';

  /** Why a step's "over margin" resource may not be the run's bottleneck: said when a step names another one. */
  const overMarginVersusBottleneck = () => '“Over margin” names, in each step, the resource furthest past its planning margin in that step’s own measurements; the run’s bottleneck is the resource whose fitted line reaches its margin at the lowest load, so a step can name another resource.';

  return { ABSENT, number, bytes, mbps, toMbps, bitrate, percent, pValue, standardError, time, alertKind, quantity, binary, unit, formula, rule, planFit,
    capacityVersusFit, overMarginVersusBottleneck, beyondTested, safeX, beyondTestedNote, noResourceReadings };
})();
if (typeof module === 'object' && module.exports) module.exports = Figures;
