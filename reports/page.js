/* page.js: dse's report page.  Reads the data dse wrote into the page
 * (<script id="dse-data">, docs/report.md "The data") and draws it with
 * Vega: every chart is a Vega spec built here from that data.  The numbers
 * the page states (fronts, ranks, knees, hypervolumes, the comparisons at
 * equal compute, the sets of the sensitivity and scalability charts) were
 * computed by dse; this script only lays them out, formats them and lets
 * the reader choose what to see.
 *
 * Modes (the address's #fragment):
 *   (none)     the page;
 *   #selftest  the page, then a report of what rendered into a <pre> of
 *              its own (the browser test reads it);
 *   #static    every chart of every workload rendered to SVG and PNG into
 *              a <pre> of its own (dse report --static reads it);
 *   #shot      the page with the first workload's knee pinned and its
 *              tooltip up (the README's screenshot). */
(function () {
  'use strict';

  const D = JSON.parse(document.getElementById('dse-data').textContent);
  const R = D.rows;
  const MODE = (location.hash || '').replace(/^#/, '');
  const errors = [];
  const origError = console.error.bind(console);
  console.error = function () {
    errors.push(Array.prototype.map.call(arguments, String).join(' '));
    origError.apply(null, arguments);
  };
  window.addEventListener('error', (e) => errors.push('error: ' + (e.message || e.type)));
  window.addEventListener('unhandledrejection', (e) => errors.push('rejection: ' + String(e.reason)));

  /* ===== palettes (colour-blind safe) ===================================== */
  /* Okabe & Ito's eight, the yellow last (weak on white), then Paul Tol's
   * muted ten for the categories beyond. */
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000',
    '#F0E442', '#332288', '#88CCEE', '#44AA99', '#117733', '#999933', '#DDCC77', '#CC6677',
    '#882255', '#AA4499', '#BBBBBB'];
  const BOUND = { compute: '#0072B2', memory: '#D55E00' };
  const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down',
    'triangle-left', 'triangle-right', 'wedge'];

  /* ===== the data ========================================================== */

  const M = {}; /* metric index by name */
  D.metrics.forEach((m, k) => { M[m.name] = k; });
  const P = {}; /* param index by name */
  D.params.forEach((p, c) => { P[p.name] = c; });
  const NOBJ = D.objectives.length;
  const objMetric = D.objectives.map((o) => o.metric);

  function mv(k, row) { const v = R.metrics[k][row]; return v === null ? NaN : v; }
  function pv(c, row) { const v = R.params[c][row]; return v < 0 ? null : D.params[c].values[v]; }
  function ok(row) { return R.status[row] === 0; }
  function rowsOf(w) {
    const out = [];
    for (let i = 0; i < R.n; i++) if (R.workload[i] === w) out.push(i);
    return out;
  }
  const varying = D.params.map((p, c) => c).filter((c) => D.params[c].values.length > 1);

  /* ===== formatting ======================================================== */

  const SI_UNITS = { 's': 1, 'J': 1, 'W': 1, 'B': 1, 'B/s': 1, 'ops/s': 1, 'J·s': 1 };
  const PREFIX = { '-15': 'f', '-12': 'p', '-9': 'n', '-6': 'µ', '-3': 'm', '0': '', '3': 'k',
    '6': 'M', '9': 'G', '12': 'T', '15': 'P' };
  function sig(v, n) { return Number(v.toPrecision(n)).toString(); }
  function fmt(v, unit, name) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (name === 'utilization') return (100 * v).toFixed(1) + '%';
    if (unit && unit[0] === '$') return (v < 0 ? '−$' : '$') + (Math.abs(v) >= 1e4 ? Math.round(Math.abs(v)).toLocaleString('en') : sig(Math.abs(v), 4)) + unit.slice(1);
    if (SI_UNITS[unit] && v !== 0) {
      let e = 3 * Math.floor(Math.log10(Math.abs(v)) / 3);
      e = Math.max(-15, Math.min(15, e));
      return sig(v / Math.pow(10, e), 4) + ' ' + PREFIX[String(e)] + unit;
    }
    if (!unit && Math.abs(v) >= 1e4 && Number.isInteger(v)) return v.toLocaleString('en');
    return sig(v, 4) + (unit ? ' ' + unit : '');
  }
  function fm(name, row) { const k = M[name]; return k === undefined ? '–' : fmt(mv(k, row), D.metrics[k].unit, name); }
  function headTitle(k) { return D.metrics[k].label; } /* (table cells carry their units) */
  function axisTitle(k) {
    const m = D.metrics[k];
    if (m.name === 'utilization') return m.label + ' (%)';
    return m.label + (m.unit ? ' (' + m.unit + ')' : '');
  }
  function axisFormat(k) {
    const m = D.metrics[k];
    if (m.name === 'utilization') return '.0%';
    return '~s';
  }
  /* Tick labels that carry their unit where it takes an SI prefix ("2 ms",
   * "800 mJ"); a count or a percentage as the format gives it. */
  function unitLabels(unit) {
    /* an SI unit takes a prefix (2ms, 800mJ); dollars and plain numbers do
     * not (0.2 TOPS/W is not "200m") */
    const text = SI_UNITS[unit] ? "format(datum.value, '~s') + '" + unit + "'"
      : unit === '$' ? "'$' + format(datum.value, ',~g')" : "format(datum.value, ',~g')";
    return { labels: { update: { text: { signal: "datum.value === 0 ? '0' : " + text } } } };
  }
  function axis(orient, scale, k, extra) {
    return Object.assign({ orient: orient, scale: scale, title: axisTitle(k), format: axisFormat(k), grid: true, gridOpacity: 0.35,
      labelOverlap: true, encode: D.metrics[k].name === 'utilization' ? {} : unitLabels(D.metrics[k].unit) }, extra || {});
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  }
  /* A design in a few words: its varying parameters' values, a plain
   * number with its parameter's last name ("rows 64"; "4 MiB" and "2 x
   * hbm3-6400" say what they are). */
  const PR = P['pe_array.rows'], PC = P['pe_array.cols'];
  const shape = PR !== undefined && PC !== undefined && varying.indexOf(PR) >= 0 && varying.indexOf(PC) >= 0;
  function designLabel(row) {
    const parts = shape && pv(PR, row) !== null && pv(PC, row) !== null ? [pv(PR, row) + 'x' + pv(PC, row) + ' PEs'] : [];
    varying.forEach((c) => {
      const v = pv(c, row), p = D.params[c];
      if (v === null || (shape && (c === PR || c === PC))) return;
      parts.push(p.numeric && !p.unit ? p.name.replace(/^.*\./, '') + ' ' + v : v);
    });
    return parts.length ? parts.join(', ') : 'point ' + R.point[row];
  }
  /* The hover text of a design: each parameter and the main metrics. */
  function designTip(row, extra) {
    const t = {};
    t['design'] = 'point ' + R.point[row] + (rankText(row) ? ' (' + rankText(row) + ')' : '');
    D.params.forEach((p, c) => { const v = pv(c, row); if (v !== null) t[p.name] = v; });
    const shown = ['latency_s', 'throughput_inf_per_s', 'energy_per_inf_j', 'tops_per_w', 'area_mm2',
      'cost_usd', 'utilization'];
    objMetric.forEach((k) => { if (shown.indexOf(D.metrics[k].name) < 0) shown.push(D.metrics[k].name); });
    shown.forEach((n) => { if (M[n] !== undefined && isFinite(mv(M[n], row))) t[D.metrics[M[n]].label] = fm(n, row); });
    if (extra) Object.assign(t, extra);
    return t;
  }
  function rankText(row) {
    const w = D.workloads[R.workload[row]];
    if (w.knee === row) return 'the knee';
    if (R.front[row]) return 'on the front';
    if (R.rank[row] > 0) return 'rank ' + R.rank[row];
    if (R.rank[row] < 0 && ok(row)) return 'over a budget';
    return '';
  }
  function slug(w) {
    const x = D.workloads[w];
    return (x.name + (x.phase ? '-' + x.phase + '-' + x.seq : '') + '-b' + x.batch)
      .toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  }

  /* ===== the page's state ================================================== */

  const S = {
    w: 0,
    x: objMetric[0] !== undefined ? objMetric[0] : 0,
    y: objMetric[1] !== undefined ? objMetric[1] : (objMetric[0] === 0 ? 1 : 0),
    color: D.color,
    logx: null, logy: null, /* null: chosen by the data's span */
    design: null,           /* the design whose layers are shown (a row) */
    pinned: null,
    sensParam: varying.length ? varying[0] : -1,
    sensMetric: objMetric[0] !== undefined ? objMetric[0] : 0,
  };

  /* ===== the 2-D front of the scatter's axes =============================== */
  /* The points no other candidate beats on both axes (each its better way),
   * equal points kept once, the first by row: the rule dse's fronts follow
   * (docs/pareto.md); candidates are the results on a front's rank (within
   * the budgets). */
  function front2(rows, kx, ky) {
    const sx = -D.metrics[kx].better, sy = -D.metrics[ky].better;
    const c = rows.filter((r) => R.rank[r] >= 0 && isFinite(mv(kx, r)) && isFinite(mv(ky, r)))
      .map((r) => ({ r: r, x: sx * mv(kx, r), y: sy * mv(ky, r) }));
    c.sort((a, b) => a.x - b.x || a.y - b.y || a.r - b.r);
    const out = [];
    let best = Infinity, lx = NaN, ly = NaN;
    for (const p of c) {
      if (p.y < best) { out.push(p.r); best = p.y; lx = p.x; ly = p.y; }
      else if (p.x === lx && p.y === ly) { /* equal to the last kept: once */ }
    }
    return out;
  }

  /* ===== scales ============================================================ */
  function span(vals) {
    const v = vals.filter((x) => isFinite(x) && x > 0);
    if (!v.length) return 1;
    return Math.max.apply(null, v) / Math.min.apply(null, v);
  }
  function wantLog(vals) {
    return vals.every((x) => !isFinite(x) || x > 0) && span(vals) >= 30;
  }
  function colorScale(c, domain) {
    if (c < 0) return { name: 'color', type: 'ordinal', domain: ['all'], range: [PALETTE[0]] };
    return { name: 'color', type: 'ordinal', domain: domain, range: PALETTE };
  }

  /* ===== chart specs =======================================================
   * Each builder returns {spec, expect}: expect maps a mark's name to the
   * number of items it must draw (the self-test checks them). */

  const W0 = 560, H0 = 360;

  function paretoSpec(w, kx, ky, color, logx, logy) {
    const rows = rowsOf(w).filter((r) => ok(r) && isFinite(mv(kx, r)) && isFinite(mv(ky, r)));
    const pts = rows.map((r) => ({
      row: r, x: mv(kx, r), y: mv(ky, r),
      c: color >= 0 ? (pv(color, r) === null ? '–' : pv(color, r)) : 'all',
      front: R.front[r], within: R.rank[r] >= 0 ? 1 : 0,
    })); /* (the tooltip is built when hovered, from the row: tooltipHandler) */
    const fr = front2(rows, kx, ky).map((r) => ({ x: mv(kx, r), y: mv(ky, r), row: r }));
    const knee = D.workloads[w].knee;
    const kn = knee !== null && rows.indexOf(knee) >= 0 ? [{ x: mv(kx, knee), y: mv(ky, knee), tip: designTip(knee) }] : [];
    const pin = S.pinned !== null && rows.indexOf(S.pinned) >= 0 ? [{ x: mv(kx, S.pinned), y: mv(ky, S.pinned) }] : [];
    const lx = logx === null ? wantLog(pts.map((p) => p.x)) : logx;
    const ly = logy === null ? wantLog(pts.map((p) => p.y)) : logy;
    const domain = color >= 0 ? D.params[color].values : ['all']; /* (every value: one colour a value on every chart) */
    const spec = {
      width: W0 + 300, height: H0 + 60, padding: 8, autosize: 'pad',
      title: { text: D.metrics[ky].label + ' against ' + D.metrics[kx].label.toLowerCase(),
        subtitle: pts.length + ' simulated designs of ' + D.workloads[w].title +
          '; outlined: on the front of the ' + NOBJ + ' objectives; dashed: the front of these two axes (' + fr.length +
          (fr.length === 1 ? ' design' : ' designs') + '); ◆ the knee',
        anchor: 'start', fontSize: 14, subtitleFontSize: 11 },
      data: [{ name: 'pts', values: pts }, { name: 'front', values: fr }, { name: 'knee', values: kn },
        { name: 'pin', values: pin }],
      scales: [
        { name: 'x', type: lx ? 'log' : 'linear', domain: { data: 'pts', field: 'x' }, range: 'width', nice: !lx, zero: false, padding: 10 },
        { name: 'y', type: ly ? 'log' : 'linear', domain: { data: 'pts', field: 'y' }, range: 'height', nice: !ly, zero: false, padding: 10 },
        colorScale(color, domain),
      ],
      axes: [axis('bottom', 'x', kx), axis('left', 'y', ky)],
      legends: color >= 0 ? [{ fill: 'color', title: D.params[color].name, symbolType: 'circle', orient: 'right', labelLimit: 200 }] : [],
      marks: [
        { type: 'line', name: 'front_line', from: { data: 'front' },
          encode: { enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, interpolate: { value: 'step-after' },
            stroke: { value: '#444' }, strokeWidth: { value: 1.3 }, strokeDash: { value: [4, 3] } } } },
        { type: 'symbol', name: 'points', from: { data: 'pts' },
          encode: {
            enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, tooltip: { signal: "'#row ' + datum.row" }, cursor: { value: 'pointer' } },
            update: {
              fill: { scale: 'color', field: 'c' }, size: { signal: 'datum.front ? 70 : 30' },
              fillOpacity: { signal: 'datum.within ? 0.85 : 0.25' },
              stroke: { signal: "datum.front ? '#000' : null" }, strokeWidth: { value: 1.2 },
            },
            hover: { size: { value: 160 } },
          } },
        { type: 'symbol', name: 'knee_mark', from: { data: 'knee' },
          encode: { enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, shape: { value: 'diamond' },
            size: { value: 260 }, fill: { value: 'transparent' }, stroke: { value: '#000' }, strokeWidth: { value: 2 },
            tooltip: { field: 'tip' } } } },
        { type: 'symbol', name: 'pin_mark', from: { data: 'pin' },
          encode: { enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, shape: { value: 'circle' },
            size: { value: 420 }, fill: { value: 'transparent' }, stroke: { value: '#D55E00' }, strokeWidth: { value: 2.5 } } } },
      ],
    };
    return { spec: spec, expect: { points: pts.length, front_line: fr.length, knee_mark: kn.length },
      renderer: pts.length > 3000 ? 'canvas' : 'svg', front2: fr.map((p) => p.row) };
  }

  /* Parallel coordinates of the front, one line a design, an axis an
   * objective (log where it spans 30x or more). */
  function parallelSpec(w) {
    const rows = D.workloads[w].front_rows;
    const dims = objMetric.map((k, i) => {
      const vals = rows.map((r) => mv(k, r));
      const log = wantLog(vals);
      let lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals);
      if (!(hi > lo)) { hi = lo * 1.1 + 1e-12; lo = lo * 0.9; }
      return { k: k, i: i, log: log, lo: lo, hi: hi };
    });
    const norm = (d, v) => d.log ? Math.log(v / d.lo) / Math.log(d.hi / d.lo) : (v - d.lo) / (d.hi - d.lo);
    const c = S.color;
    const vals = [];
    /* (a maximized objective's axis is flipped: better is below on every axis) */
    rows.forEach((r) => dims.forEach((d) => vals.push({ row: r, i: d.i, v: norm(d, mv(d.k, r)),
      flip: D.metrics[d.k].better > 0 ? 1 : 0, c: c >= 0 ? (pv(c, r) || '–') : 'all' })));
    const h = 300, step = 210;
    const width = Math.max(300, step * (dims.length - 1));
    const domain = c >= 0 ? D.params[c].values : ['all'];
    const spec = {
      width: width, height: h, padding: { left: 60, right: 20, top: 10, bottom: 10 }, autosize: 'pad',
      title: { text: 'The front in its ' + NOBJ + ' objectives', offset: 22, subtitle: rows.length +
        ' designs on the front of ' + D.workloads[w].title + '; lower on an axis is better (maximized objectives flipped)', anchor: 'start', fontSize: 14, subtitleFontSize: 11 },
      data: [{ name: 'pc', values: vals }, { name: 'dims', values: dims.map((d) => ({ i: d.i, title: axisTitle(d.k) })) }],
      scales: [
        { name: 'dim', type: 'point', domain: dims.map((d) => d.i), range: 'width' },
        { name: 'n', type: 'linear', domain: [0, 1], range: 'height' },
        colorScale(c, domain),
      ].concat(dims.map((d) => ({ name: 'a' + d.i, type: d.log ? 'log' : 'linear',
        domain: [d.lo, d.hi], range: D.metrics[d.k].better > 0 ? [0, h] : [h, 0], zero: false, nice: false }))),
      legends: c >= 0 ? [{ stroke: 'color', title: D.params[c].name, symbolType: 'stroke', orient: 'right', labelLimit: 200 }] : [],
      marks: [
        { type: 'group', name: 'designs', from: { facet: { name: 'line', data: 'pc', groupby: 'row' } },
          marks: [{ type: 'line', from: { data: 'line' },
            encode: { enter: { x: { scale: 'dim', field: 'i' },
              y: { signal: "scale('n', datum.flip ? 1 - datum.v : datum.v)" },
              stroke: { scale: 'color', field: 'c' }, strokeWidth: { value: 1.4 }, strokeOpacity: { value: 0.75 },
              tooltip: { signal: "'#row ' + datum.row" } },
            hover: { strokeWidth: { value: 3 }, strokeOpacity: { value: 1 } },
            update: { strokeWidth: { value: 1.4 }, strokeOpacity: { value: 0.75 } } } }] },
      ].concat(dims.map((d) => ({ type: 'group', encode: { enter: { x: { scale: 'dim', value: d.i } } },
        axes: [{ orient: 'left', scale: 'a' + d.i, format: axisFormat(d.k), labelOverlap: true, tickCount: 6, title: null, domainWidth: 1.5,
          encode: D.metrics[d.k].name === 'utilization' ? {} : unitLabels(D.metrics[d.k].unit) }],
        marks: [{ type: 'text', encode: { enter: { x: { value: 0 }, y: { value: -10 }, text: { value: axisTitle(d.k) },
          align: { value: 'center' }, fontWeight: { value: 'bold' }, fontSize: { value: 11 } } } }] }))),
    };
    return { spec: spec, expect: { designs: rows.length } };
  }

  /* The designs of workload w whose layers the data holds. */
  function layerDesigns(w) { return D.layers[w] ? D.layers[w].designs : []; }
  function layerNames(w) {
    const ds = layerDesigns(w);
    return ds.length ? { name: ds[0].name, type: ds[0].type } : { name: [], type: [] };
  }
  function currentDesign(w) {
    const ds = layerDesigns(w);
    let d = ds.find((x) => x.row === S.design);
    if (!d) d = ds.find((x) => x.row === D.workloads[w].knee) || ds[0];
    return d || null;
  }
  function layerRows(w, d) {
    const nm = layerNames(w);
    const out = [];
    for (let i = 0; i < d.n; i++) {
      out.push({
        i: i, name: nm.name[i], type: nm.type[i], lat: d.latency_s[i], util: d.utilization[i],
        intensity: d.intensity[i], achieved: d.achieved[i], macs: d.macs[i],
        bound: d.memory_bound[i] ? 'memory' : 'compute',
        tip: { layer: '#' + i + ' ' + nm.name[i] + ' (' + nm.type[i] + ')', latency: fmt(d.latency_s[i], 's'),
          utilization: fmt(d.utilization[i], '', 'utilization'), MACs: fmt(d.macs[i], ''),
          intensity: d.intensity[i] > 0 ? fmt(d.intensity[i], 'ops/B') : 'no DRAM bytes',
          achieved: fmt(d.achieved[i], 'ops/s'), 'DRAM traffic': fmt(d.dram_bytes[i], 'B'),
          energy: fmt(d.energy_j[i], 'J'), bound: (d.memory_bound[i] ? 'memory' : 'compute') + ' (side of the ridge)' },
        fused: d.fused && d.fused[i] > 0 ? 1 : 0,
      });
    }
    out.forEach((l) => { if (l.fused) l.tip.fused = 'with the layer before: its time is only what it adds, so its rate is above what it would reach alone'; });
    return out;
  }

  /* The roofline: the design's compute ceiling, one bandwidth roof per
   * memory of the sweep, and each layer of the design at its operational
   * intensity and achieved rate, sized by its time. */
  function rooflineSpec(w, d) {
    const ls = layerRows(w, d);
    const peak = d.peak_ops_per_s;
    const ints = ls.map((l) => l.intensity).filter((x) => x > 0);
    const achs = ls.map((l) => l.achieved).filter((x) => x > 0);
    const mems = D.memory >= 0 ? D.memories.map((m, v) => ({ label: D.params[D.memory].values[v], bw: m.bandwidth, v: v }))
      .filter((m) => isFinite(m.bw) && m.bw > 0) : [];
    if (!mems.length && isFinite(d.dram_bandwidth_bytes_per_s)) mems.push({ label: 'DRAM', bw: d.dram_bandwidth_bytes_per_s, v: 0 });
    const ridges = mems.map((m) => peak / m.bw);
    let xlo = Math.min.apply(null, ints.concat(ridges)) / 4, xhi = Math.max.apply(null, ints.concat(ridges)) * 4;
    if (!isFinite(xlo) || xlo <= 0) xlo = 0.01;
    if (!isFinite(xhi) || xhi <= xlo) xhi = xlo * 1e4;
    let ylo = Math.min.apply(null, achs.concat([peak])) / 4, yhi = peak * 3;
    if (!isFinite(ylo) || ylo <= 0) ylo = peak / 1e6;
    const own = D.memory >= 0 ? pv(D.memory, d.row) : 'DRAM';
    const roofs = [];
    mems.forEach((m) => {
      const xr = peak / m.bw, x0 = Math.max(xlo, ylo / m.bw);
      roofs.push({ m: m.label, x: x0, y: m.bw * x0, own: m.label === own ? 1 : 0, v: m.v },
        { m: m.label, x: Math.min(xr, xhi), y: m.bw * Math.min(xr, xhi), own: m.label === own ? 1 : 0, v: m.v });
    });
    const pts = ls.map((l) => Object.assign({}, l, {
      x: l.intensity > 0 ? l.intensity : xhi, y: l.achieved > 0 ? l.achieved : ylo,
    }));
    const vp = d.vector_peak_ops_per_s;
    const memDomain = mems.map((m) => m.label);
    const memRange = mems.map((m) => PALETTE[m.v % PALETTE.length]);
    const memText = {};
    mems.forEach((m) => { memText[m.label] = m.label + ', ' + fmt(m.bw, 'B/s') + (m.label === own ? ' (this design\'s)' : ''); });
    const spec = {
      width: W0 + 80, height: H0 + 40, padding: 8, autosize: 'pad',
      title: { text: 'Roofline of ' + designLabel(d.row), anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: ls.length + ' layers of ' + D.workloads[w].title + ', each at its operational intensity, sized by its time; ' +
          'roofs: the array\'s peak ' + fmt(peak, 'ops/s') + (isFinite(vp) && vp > 0 ? ', the vector unit\'s ' + fmt(vp, 'ops/s') + ' (dashed)' : '') +
          ', each memory\'s bandwidth (this design\'s bold); layers without DRAM traffic at the right edge' },
      data: [{ name: 'lyr', values: pts }, { name: 'roofs', values: roofs }],
      scales: [
        { name: 'x', type: 'log', domain: [xlo, xhi], range: 'width', nice: false },
        { name: 'y', type: 'log', domain: [ylo, yhi], range: 'height', nice: false },
        { name: 'size', type: 'sqrt', domain: [0, Math.max.apply(null, ls.map((l) => l.lat).concat([1e-30]))], range: [12, 700] },
        { name: 'bound', type: 'ordinal', domain: ['compute', 'memory'], range: [BOUND.compute, BOUND.memory] },
        { name: 'shape', type: 'ordinal', domain: ['compute', 'memory'], range: ['circle', 'triangle-up'] },
        { name: 'mem', type: 'ordinal', domain: memDomain, range: memRange },
      ],
      axes: [
        { orient: 'bottom', scale: 'x', title: 'Operational intensity (ops per DRAM byte)', format: '~s', grid: true, gridOpacity: 0.3, labelOverlap: true, tickCount: 8, encode: unitLabels('') },
        { orient: 'left', scale: 'y', title: 'Achieved (ops/s)', format: '~s', grid: true, gridOpacity: 0.3, labelOverlap: true, tickCount: 8, encode: unitLabels('ops/s') },
      ],
      legends: [{ fill: 'bound', shape: 'shape', title: 'layer bound', orient: 'right' },
        { stroke: 'mem', title: 'memory roof', orient: 'right', symbolType: 'stroke', labelLimit: 260,
          encode: { labels: { update: { text: { signal: JSON.stringify(memText) + '[datum.value]' } } } } }],
      marks: [
        { type: 'rule', name: 'compute_roof', encode: { enter: { x: { value: 0 }, x2: { signal: 'width' },
          y: { scale: 'y', value: peak }, stroke: { value: '#000' }, strokeWidth: { value: 2 } } } },
        { type: 'text', encode: { enter: { x: { value: 4 }, y: { scale: 'y', value: peak }, dy: { value: -6 },
          align: { value: 'left' }, text: { value: 'array peak ' + fmt(peak, 'ops/s') }, fontSize: { value: 11 } } } },
      ].concat(isFinite(vp) && vp > 0 ? [{ type: 'rule', name: 'vector_roof', encode: { enter: {
        /* the vector unit's roof: flat from its ridge on this design's memory, under it that memory's slope */
        x: { scale: 'x', value: Math.min(xhi, Math.max(xlo, vp / d.dram_bandwidth_bytes_per_s)) }, x2: { signal: 'width' },
        y: { scale: 'y', value: vp }, stroke: { value: '#555' }, strokeDash: { value: [5, 4] } } } }] : []).concat([
        { type: 'group', name: 'memory_roofs', from: { facet: { name: 'roof', data: 'roofs', groupby: 'm' } },
          marks: [{ type: 'line', from: { data: 'roof' }, encode: { enter: {
            x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, stroke: { scale: 'mem', field: 'm' },
            strokeWidth: { signal: 'datum.own ? 3 : 1.3' } } } }] },
        { type: 'symbol', name: 'layers', from: { data: 'lyr' }, encode: {
          enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, size: { scale: 'size', field: 'lat' },
            shape: { scale: 'shape', field: 'bound' }, fill: { scale: 'bound', field: 'bound' }, tooltip: { field: 'tip' } },
          update: { fillOpacity: { value: 0.6 }, stroke: { value: '#fff' }, strokeWidth: { value: 0.5 } },
          hover: { fillOpacity: { value: 1 }, stroke: { value: '#000' } } } },
      ]),
    };
    return { spec: spec, expect: { layers: ls.length, memory_roofs: mems.length } };
  }

  /* Per-layer latency (bars, coloured by the side of the ridge) and PE
   * utilization of the design. */
  function layerBarsSpec(w, d, what) {
    const ls = layerRows(w, d);
    const lat = what === 'latency';
    const total = ls.reduce((a, l) => a + (l.lat || 0), 0);
    const spec = {
      width: Math.max(W0 * 2, Math.min(2400, ls.length * 8)), height: lat ? 200 : 120, padding: 8, autosize: 'pad',
      title: lat ? { text: 'Latency of each layer of ' + designLabel(d.row), anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: ls.length + ' layers of ' + D.workloads[w].title + ', in order; ' + fmt(total, 's') + ' in all' }
        : { text: 'PE utilization of each layer', anchor: 'start', fontSize: 13 },
      data: [{ name: 'lyr', values: ls }],
      scales: [
        { name: 'x', type: 'band', domain: ls.map((l) => l.i), range: 'width', paddingInner: 0.15 },
        { name: 'y', type: 'linear', domain: lat ? { data: 'lyr', field: 'lat' } : [0, 1], range: 'height', nice: true, zero: true },
        { name: 'bound', type: 'ordinal', domain: ['compute', 'memory'], range: [BOUND.compute, BOUND.memory] },
      ],
      axes: [
        { orient: 'bottom', scale: 'x', title: 'Layer (index in the workload)', labelOverlap: 'greedy', labelSeparation: 6, values: ls.filter((l) => l.i % 10 === 0).map((l) => l.i) },
        Object.assign({ orient: 'left', scale: 'y', title: lat ? 'Latency (s)' : 'Utilization (%)', format: lat ? '~s' : '.0%', grid: true, gridOpacity: 0.3, tickCount: 5 },
          lat ? { encode: unitLabels('s') } : {}),
      ],
      legends: lat ? [{ fill: 'bound', title: 'bound', orient: 'right' }] : [],
      marks: [{ type: 'rect', name: lat ? 'layer_latency' : 'layer_utilization', from: { data: 'lyr' }, encode: {
        enter: { x: { scale: 'x', field: 'i' }, width: { scale: 'x', band: 1 }, y: { scale: 'y', field: lat ? 'lat' : 'util' },
          y2: { scale: 'y', value: 0 }, tooltip: { field: 'tip' } },
        update: { fill: lat ? { scale: 'bound', field: 'bound' } : { value: '#009E73' }, fillOpacity: { value: 0.85 } },
        hover: { fillOpacity: { value: 1 }, fill: { value: '#000' } } } }],
    };
    return { spec: spec, expect: lat ? { layer_latency: ls.length } : { layer_utilization: ls.length } };
  }

  /* A stacked part's colour, by family (the same part the same colour
   * whatever the source): compute blues, SRAM purples, DRAM oranges and
   * reds, leakage and clock greys; dies, memories, packages likewise. */
  const PART_COLOURS = {
    'MAC': '#0072B2', 'Registers': '#56B4E9', 'NoC': '#9ecae1', 'Vector unit': '#08519c',
    'SRAM': '#CC79A7', 'SRAM buffer 1': '#CC79A7', 'SRAM buffer 2': '#7b3294', 'SRAM buffer 3': '#c2a5cf',
    'SRAM buffer 4': '#e7d4e8', 'SRAM buffer 5': '#9e4f8a', 'SRAM buffer 6': '#dd99c7', 'SRAM buffer 7': '#5e2b57', 'SRAM buffer 8': '#f1c6e3',
    'DRAM': '#D55E00', 'DRAM activate': '#E69F00', 'DRAM read/write': '#D55E00', 'DRAM I/O': '#8c2d04',
    'DRAM refresh': '#fdd49e', 'DRAM background': '#F0E442',
    'Static (leakage)': '#636363', 'Clock tree': '#bdbdbd', 'Other (unattributed)': '#ffffff',
    'PE array': '#0072B2', 'Memory PHY': '#D55E00', 'Memory controllers': '#E69F00', 'Other logic': '#bdbdbd',
    'Die': '#0072B2', 'Memory': '#D55E00', 'Package': '#009E73', 'NRE share': '#bdbdbd',
  };
  function partColour(p, k) { return PART_COLOURS[p] || PALETTE[k % PALETTE.length]; }

  /* Stacked bars of a breakdown (energy per inference, area, unit cost) of
   * each design on the front, by the first objective. */
  function stackSpec(w, which) {
    const parts = D.parts[which];
    const rows = D.workloads[w].front_rows;
    const vals = [];
    let n = 0;
    rows.forEach((r, j) => {
      const b = D.breakdown[which][String(r)];
      if (!b) return;
      parts.forEach((p, k) => {
        if (b[k] !== null && b[k] > 0) {
          n++;
          vals.push({ j: j, row: r, k: k, part: p, v: b[k], tip: Object.assign({ part: p,
            value: fmt(b[k], which === 'energy' ? 'J' : which === 'area' ? 'mm²' : '$') }, designTip(r)) });
        }
      });
    });
    const title = which === 'energy' ? 'Where the energy of an inference goes' : which === 'area' ? 'Where the die area goes' : 'What a unit costs';
    const ytitle = which === 'energy' ? 'Energy per inference (J)' : which === 'area' ? 'Die area (mm²)' : 'Unit cost ($)';
    const wide = which === 'energy';
    const full = wide ? W0 * 2 - 60 : W0 - 100;
    const spec = {
      width: Math.min(full, Math.max(160, rows.length * 18)), height: wide ? 260 : 220, padding: 8, autosize: 'pad',
      title: { text: title, anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: rows.length + ' designs on the front of ' + D.workloads[w].title + ', by ' + D.metrics[objMetric[0]].label.toLowerCase() },
      data: [{ name: 'parts', values: vals, transform: [{ type: 'stack', groupby: ['j'], sort: { field: 'k' }, field: 'v' }] }],
      scales: [
        { name: 'x', type: 'band', domain: rows.map((r, j) => j), range: 'width', paddingInner: 0.12 },
        { name: 'y', type: 'linear', domain: { data: 'parts', field: 'y1' }, range: 'height', nice: true, zero: true },
        { name: 'part', type: 'ordinal', domain: parts, range: parts.map(partColour) },
      ],
      axes: [
        { orient: 'bottom', scale: 'x', title: 'Front design (' + D.metrics[objMetric[0]].label.toLowerCase() + ' ' +
          (D.metrics[objMetric[0]].better < 0 ? 'rising' : 'falling') + ' →)', labels: false, ticks: false },
        { orient: 'left', scale: 'y', title: ytitle, format: '~s', grid: true, gridOpacity: 0.3, tickCount: 5,
          encode: unitLabels(which === 'energy' ? 'J' : which === 'area' ? '' : '$') },
      ],
      legends: [{ fill: 'part', title: which === 'energy' ? 'part' : which === 'area' ? 'block' : 'item', orient: 'right', labelLimit: 160 }],
      marks: [{ type: 'rect', name: which + '_bars', from: { data: 'parts' }, encode: {
        enter: { x: { scale: 'x', field: 'j' }, width: { scale: 'x', band: 1 }, y: { scale: 'y', field: 'y0' }, y2: { scale: 'y', field: 'y1' },
          fill: { scale: 'part', field: 'part' }, tooltip: { field: 'tip' } },
        update: { stroke: { value: null } }, hover: { stroke: { value: '#000' } } } }],
    };
    return { spec: spec, expect: { [which + '_bars']: n } };
  }

  /* Each memory at the knee's compute: small multiples of the metrics the
   * comparison table lists, a bar per memory. */
  const CMP = ['latency_s', 'throughput_inf_per_s', 'energy_per_inf_j', 'tops_per_w', 'area_mm2', 'cost_usd', 'usd_per_inf_per_s'];
  function memorySpec(w) {
    const g = D.workloads[w];
    const mems = D.memory >= 0 ? D.params[D.memory].values : [];
    const ks = CMP.filter((n) => M[n] !== undefined);
    const vals = [];
    let n = 0;
    ks.forEach((name, q) => {
      mems.forEach((m, v) => {
        const r = g.compare[v];
        const x = r === null || r === undefined || !ok(r) ? NaN : mv(M[name], r);
        if (isFinite(x)) n++;
        vals.push({ q: q, m: m, v: isFinite(x) ? x : null, knee: r === g.knee ? 1 : 0,
          tip: r === null ? { memory: m, result: 'not in the sweep' } : !ok(r)
            ? { memory: m, result: D.statuses[R.status[r]] + (R.status[r] === 3 ? ' (its level-1 floor was dominated)' : '') }
            : designTip(r, { [D.metrics[M[name]].label]: fmt(x, D.metrics[M[name]].unit, name) }) });
      });
    });
    const cw = 150, ch = 150;
    const spec = {
      width: (cw + 40) * Math.min(4, ks.length), height: (ch + 70) * Math.ceil(ks.length / 4), padding: 8, autosize: 'pad',
      title: { text: 'Each memory at the knee\'s compute', anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: 'The knee of ' + g.title + ' (' + (g.knee !== null ? designLabel(g.knee) : '–') + ') with each memory, its other parameters held; bold: the knee\'s own' },
      data: [{ name: 'cmp', values: vals }],
      scales: [{ name: 'mem', type: 'ordinal', domain: mems, range: PALETTE }],
      legends: [{ fill: 'mem', title: 'memory', orient: 'right' }],
      marks: ks.map((name, q) => ({
        type: 'group', encode: { enter: { x: { value: (q % 4) * (cw + 40) }, y: { value: Math.floor(q / 4) * (ch + 70) }, width: { value: cw }, height: { value: ch } } },
        data: [{ name: 'c' + q, source: 'cmp', transform: [{ type: 'filter', expr: 'datum.q === ' + q }] }],
        scales: [
          { name: 'x', type: 'band', domain: mems, range: [0, cw], paddingInner: 0.15 },
          { name: 'y', type: 'linear', domain: { data: 'c' + q, field: 'v' }, range: [ch, 0], nice: true, zero: true },
        ],
        axes: [{ orient: 'left', scale: 'y', format: axisFormat(M[name]), tickCount: 4, encode: name === 'utilization' ? {} : unitLabels(D.metrics[M[name]].unit) },
          { orient: 'bottom', scale: 'x', labels: false, ticks: false }],
        title: { text: axisTitle(M[name]), fontSize: 11, anchor: 'start' },
        marks: [{ type: 'rect', name: 'memory_bars', from: { data: 'c' + q }, encode: {
          enter: { x: { scale: 'x', field: 'm' }, width: { scale: 'x', band: 1 }, y: { scale: 'y', field: 'v' }, y2: { scale: 'y', value: 0 },
            fill: { scale: 'mem', field: 'm' }, stroke: { signal: "datum.knee ? '#000' : null" }, strokeWidth: { value: 2 },
            tooltip: { field: 'tip' }, opacity: { signal: 'datum.v === null ? 0 : 1' } } } },
        { type: 'text', from: { data: 'c' + q }, encode: { enter: { x: { scale: 'x', field: 'm', band: 0.5 }, y: { value: ch - 4 },
          text: { signal: "datum.v === null ? '–' : ''" }, align: { value: 'center' }, fontSize: { value: 10 }, fill: { value: '#777' } } } }],
      })),
    };
    return { spec: spec, expect: { memory_bars: vals.length } , present: n };
  }

  /* A metric against one parameter, the others held at the knee's values. */
  function sensitivitySpec(w, c, k) {
    const g = D.workloads[w];
    const set = g.sensitivity[c];
    const p = D.params[c];
    const pts = [], missing = [];
    (set || []).forEach((r, v) => {
      const x = p.numeric ? p.num[v] : v;
      if (r !== null && ok(r) && isFinite(mv(k, r)))
        pts.push({ x: x, label: p.values[v], y: mv(k, r), knee: r === g.knee ? 1 : 0, tip: designTip(r) });
      else missing.push({ x: x, label: p.values[v], why: r === null ? 'not in the sweep' : D.statuses[R.status[r]] });
    });
    const log = p.numeric && p.num.every((x) => x > 0) && span(p.num) >= 8;
    const xs = p.numeric
      ? { name: 'x', type: log ? 'log' : 'linear', domain: [Math.min.apply(null, p.num), Math.max.apply(null, p.num)], range: 'width', nice: !log, zero: false, padding: 20 }
      : { name: 'x', type: 'point', domain: p.values.map((v, i) => i), range: 'width', padding: 0.5 };
    const spec = {
      width: W0 - 40, height: 260, padding: 8, autosize: 'pad',
      title: { text: D.metrics[k].label + ' against ' + p.name, anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: 'The other parameters at the knee of ' + g.title + '; ◆ the knee' +
          (missing.length ? '; not simulated: ' + missing.map((m) => m.label + ' (' + m.why + ')').join(', ') : '') },
      data: [{ name: 'pts', values: pts }],
      scales: [xs, { name: 'y', type: 'linear', domain: { data: 'pts', field: 'y' }, range: 'height', nice: true, zero: true }],
      axes: [
        p.numeric ? { orient: 'bottom', scale: 'x', title: p.name, values: p.num, grid: true, gridOpacity: 0.3,
          encode: { labels: { update: { text: { signal: JSON.stringify(p.values) + '[indexof(' + JSON.stringify(p.num) + ', datum.value)]' } } } } }
          : { orient: 'bottom', scale: 'x', title: p.name, encode: { labels: { update: { text: { signal: 'datum.value >= 0 ? ' + JSON.stringify(p.values) + '[datum.value] : ""' } } } }, labelAngle: -20, labelAlign: 'right' },
        axis('left', 'y', k),
      ],
      marks: [
        { type: 'line', from: { data: 'pts' }, encode: { enter: { x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, stroke: { value: PALETTE[0] }, strokeWidth: { value: 2 },
          strokeOpacity: { value: p.numeric ? 1 : 0 } } } }, /* (no line across unordered values) */
        { type: 'symbol', name: 'sensitivity_points', from: { data: 'pts' }, encode: { enter: {
          x: { scale: 'x', field: 'x' }, y: { scale: 'y', field: 'y' }, shape: { signal: "datum.knee ? 'diamond' : 'circle'" },
          size: { signal: 'datum.knee ? 200 : 70' }, fill: { value: PALETTE[0] }, stroke: { value: '#000' }, tooltip: { field: 'tip' } } } },
      ],
    };
    return { spec: spec, expect: { sensitivity_points: pts.length } };
  }

  /* Flexibility: each design's PE utilization on every workload, and its
   * spread. */
  function flexibilitySpec() {
    const pts = [], ranges = [];
    D.designs.forEach((d, j) => {
      const label = designLabel(d.row);
      d.in.forEach((r, w) => {
        if (r !== null && ok(r) && isFinite(mv(M.utilization, r)))
          pts.push({ d: j, label: label, w: D.workloads[w].title, u: mv(M.utilization, r), tip: designTip(r, { workload: D.workloads[w].title }) });
      });
      const us = pts.filter((p) => p.d === j).map((p) => p.u);
      if (us.length) ranges.push({ d: j, lo: Math.min.apply(null, us), hi: Math.max.apply(null, us), mean: d.utilization_mean });
    });
    const spec = {
      width: W0 - 40, height: Math.max(120, 26 * D.designs.length), padding: 8, autosize: 'pad',
      title: { text: 'Flexibility: utilization across the workloads', anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: 'Each design of the table above on every workload it was simulated on (a pruned result has no utilization: "2 of 3" marks a design measured on fewer); the bar spans its spread, | its mean' },
      data: [{ name: 'pts', values: pts }, { name: 'ranges', values: ranges }],
      scales: [
        { name: 'x', type: 'linear', domain: [0, 1], range: 'width' },
        { name: 'y', type: 'band', domain: D.designs.map((d, j) => j), range: 'height', padding: 0.3 },
        { name: 'wl', type: 'ordinal', domain: D.workloads.map((w) => w.title), range: PALETTE },
        { name: 'shape', type: 'ordinal', domain: D.workloads.map((w) => w.title), range: SHAPES },
      ],
      axes: [
        { orient: 'bottom', scale: 'x', title: 'PE utilization (%)', format: '.0%', grid: true, gridOpacity: 0.3 },
        { orient: 'left', scale: 'y', title: 'Design (the table\'s #)', encode: { labels: { update: { text: { signal:
          JSON.stringify(D.designs.map((d, j) => '#' + (j + 1) + (d.simulated < D.workloads.length ? ' (' + d.simulated + ' of ' + D.workloads.length + ')' : ''))) + '[datum.value]' } } } } },
      ],
      legends: [{ fill: 'wl', shape: 'shape', title: 'workload', orient: 'bottom', direction: 'vertical', labelLimit: 400 }],
      marks: [
        { type: 'rect', name: 'flexibility_spread', from: { data: 'ranges' }, encode: { enter: {
          x: { scale: 'x', field: 'lo' }, x2: { scale: 'x', field: 'hi' }, yc: { scale: 'y', field: 'd', band: 0.5 }, height: { value: 6 }, fill: { value: '#ccc' } } } },
        { type: 'rect', from: { data: 'ranges' }, encode: { enter: {
          xc: { scale: 'x', field: 'mean' }, width: { value: 2 }, yc: { scale: 'y', field: 'd', band: 0.5 }, height: { value: 14 }, fill: { value: '#000' } } } },
        { type: 'symbol', name: 'flexibility_points', from: { data: 'pts' }, encode: { enter: {
          x: { scale: 'x', field: 'u' }, yc: { scale: 'y', field: 'd', band: 0.5 }, fill: { scale: 'wl', field: 'w' }, shape: { scale: 'shape', field: 'w' },
          size: { value: 80 }, stroke: { value: '#fff' }, tooltip: { field: 'tip' } } } },
      ],
    };
    return { spec: spec, expect: { flexibility_points: pts.length, flexibility_spread: ranges.length } };
  }

  /* Scalability: throughput against the PE count at the knee's memory and
   * SRAM, with the ideal (linear) line through the smallest array. */
  function scalingSpec(w) {
    const s = D.workloads[w].scaling;
    const pts = s.rows.map((r) => ({ pes: mv(M.pes, r), thr: mv(M.throughput_inf_per_s, r), tip: designTip(r) }));
    const pes = pts.map((p) => p.pes);
    const lo = Math.min.apply(null, pes), hi = Math.max.apply(null, pes);
    const ideal = [{ pes: lo, thr: s.ideal_throughput * lo / s.ideal_pes }, { pes: hi, thr: s.ideal_throughput * hi / s.ideal_pes }];
    const held = D.params.map((p, c) => c).filter((c) => !D.params[c].pe && D.params[c].values.length > 1)
      .map((c) => D.params[c].name + ' ' + pv(c, D.workloads[w].knee));
    const spec = {
      width: W0 - 40, height: 260, padding: 8, autosize: 'pad',
      title: { text: 'Scalability: throughput against PEs', anchor: 'start', fontSize: 14, subtitleFontSize: 11,
        subtitle: D.workloads[w].title + ' at ' + (held.join(', ') || 'the knee\'s other parameters') + '; dashed: ideal (linear from the smallest array)' +
          (s.missing ? '; ' + s.missing + ' arrays not simulated (pruned or infeasible)' : '') },
      data: [{ name: 'pts', values: pts }, { name: 'ideal', values: ideal }],
      scales: [
        { name: 'x', type: 'log', domain: [lo / 1.3, hi * 1.3], range: 'width', nice: false },
        { name: 'y', type: 'log', domain: { fields: [{ data: 'pts', field: 'thr' }, { data: 'ideal', field: 'thr' }] }, range: 'height', nice: false, padding: 10 },
      ],
      axes: [
        { orient: 'bottom', scale: 'x', title: 'PEs', format: '~s', grid: true, gridOpacity: 0.3, labelOverlap: true, encode: unitLabels('') },
        { orient: 'left', scale: 'y', title: 'Throughput (inf/s)', format: '~s', grid: true, gridOpacity: 0.3, labelOverlap: true, tickCount: 6, encode: unitLabels('') },
      ],
      marks: [
        { type: 'line', name: 'ideal_line', from: { data: 'ideal' }, encode: { enter: { x: { scale: 'x', field: 'pes' }, y: { scale: 'y', field: 'thr' },
          stroke: { value: '#777' }, strokeDash: { value: [6, 4] } } } },
        { type: 'symbol', name: 'scaling_points', from: { data: 'pts' }, encode: { enter: { x: { scale: 'x', field: 'pes' }, y: { scale: 'y', field: 'thr' },
          fill: { value: PALETTE[2] }, size: { value: 70 }, stroke: { value: '#000' }, strokeWidth: { value: 0.5 }, tooltip: { field: 'tip' } } } },
      ],
    };
    return { spec: spec, expect: { scaling_points: pts.length } };
  }

  /* ===== rendering ========================================================= */

  const live = {}; /* chart id -> {view, expect} */
  let renderMs = null;
  const tooltipEl = document.createElement('div');
  tooltipEl.id = 'dse-tooltip';
  document.body.appendChild(tooltipEl);
  function tooltipHandler(handler, event, item, value) {
    if (value === null || value === undefined || value === '') { tooltipEl.style.display = 'none'; return; }
    if (typeof value === 'string' && value.startsWith('#row ')) value = designTip(Number(value.slice(5))); /* built now */
    let html = '';
    if (typeof value === 'object') {
      html = '<table>' + Object.keys(value).map((k) => '<tr><td class="k">' + esc(k) + '</td><td>' + esc(value[k]) + '</td></tr>').join('') + '</table>';
    } else {
      html = esc(value);
    }
    tooltipEl.innerHTML = html;
    tooltipEl.style.display = 'block';
    const x = event.clientX + 14, y = event.clientY + 14;
    const r = tooltipEl.getBoundingClientRect();
    tooltipEl.style.left = Math.min(x, window.innerWidth - r.width - 8) + 'px';
    tooltipEl.style.top = (y + r.height > window.innerHeight ? event.clientY - r.height - 10 : y) + 'px';
  }

  function render(id, built, onClick) {
    const el = document.getElementById(id);
    if (!el) return Promise.resolve();
    if (live[id]) { live[id].view.finalize(); delete live[id]; }
    el.innerHTML = '';
    const view = new vega.View(vega.parse(built.spec), { renderer: built.renderer || 'svg', container: el, hover: true });
    view.tooltip(tooltipHandler);
    if (onClick) view.addEventListener('click', (ev, item) => { if (item && item.datum) onClick(item.datum); });
    live[id] = { view: view, expect: built.expect, built: built };
    return view.runAsync().catch((e) => { errors.push(id + ': ' + e.message); });
  }

  /* ===== the page ========================================================== */

  const main = document.getElementById('dse-report');
  function h(tag, attrs, html) {
    const e = document.createElement(tag);
    Object.keys(attrs || {}).forEach((k) => e.setAttribute(k, attrs[k]));
    if (html !== undefined) e.innerHTML = html;
    return e;
  }
  function select(label, options, value, onChange) {
    const l = h('label', {}, esc(label));
    const s = document.createElement('select');
    options.forEach((o) => { const op = h('option', { value: String(o.value) }, esc(o.label)); if (o.value === value) op.selected = true; s.appendChild(op); });
    s.addEventListener('change', () => onChange(s.value));
    l.appendChild(s);
    return l;
  }
  function checkbox(label, checked, onChange) {
    const l = h('label', {});
    const c = h('input', { type: 'checkbox' });
    c.checked = checked;
    c.addEventListener('change', () => onChange(c.checked));
    l.appendChild(c);
    l.appendChild(document.createTextNode(' ' + label));
    return l;
  }

  function objectivesText() {
    return D.objectives.map((o) => D.metrics[o.metric].name + (o.sign < 0 ? ' (maximized)' : '')).join(', ');
  }

  function header() {
    const c = D.counts;
    const top = h('header', { class: 'top' });
    top.appendChild(h('h1', {}, esc(D.title)));
    top.appendChild(h('p', { class: 'muted' }, 'From <code>' + esc(D.source) + '</code>' + (D.sweep ? ', sweep <b>' + esc(D.sweep) + '</b>' +
      (D.finished ? '' : ' <span class="err">(not finished)</span>') : '') + ': ' + c.results + ' results, ' + c.ok + ' simulated, ' +
      c.infeasible + ' infeasible, ' + c.failed + ' failed, ' + c.pruned + ' pruned by their level-1 floors.  Objectives: ' +
      esc(objectivesText()) + (D.budgets.length ? '; budgets: ' + esc(D.budgets.map((b) => D.metrics[b.metric].name + ' ' + b.op + ' ' + b.value).join(', ')) : '') +
      '.  Written by dse ' + esc(D.dse_version) + '; summary.md and data.csv beside this page hold its numbers.'));
    (D.warnings || []).forEach((w) => top.appendChild(h('p', { class: 'warn' }, '<b>Warning:</b> ' + esc(w) + '.')));
    main.appendChild(top);
    const nav = h('nav', { class: 'bar' });
    nav.appendChild(select('Workload', D.workloads.map((w, i) => ({ value: i, label: w.title })), S.w, (v) => { S.w = Number(v); S.design = null; drawWorkload(); }));
    [['overview', 'Overview'], ['pareto', 'Pareto front'], ['parallel', 'All objectives'], ['memories', 'Memories'], ['roofline', 'Roofline'],
      ['layers', 'Layers'], ['breakdown', 'Energy, area, cost'], ['sensitivity', 'Sensitivity'], ['designs', 'Designs side by side']]
      .forEach((a) => nav.appendChild(h('a', { href: '#' + a[0] + '-sec' }, a[1])));
    main.appendChild(nav);
  }

  function overview() {
    const sec = h('section', { id: 'overview-sec' });
    sec.appendChild(h('h2', {}, 'Overview'));
    let t = '<div class="scroll"><table><tr><th class="l">workload</th><th>results</th><th>simulated</th><th>within budgets</th><th>on the front</th><th>ranks</th><th>hypervolume</th><th class="l">the knee</th>' +
      ['latency_s', 'throughput_inf_per_s', 'energy_per_inf_j', 'area_mm2', 'cost_usd'].filter((n) => M[n] !== undefined).map((n) => '<th>' + esc(headTitle(M[n]).toLowerCase()) + '</th>').join('') + '</tr>';
    D.workloads.forEach((w) => {
      t += '<tr><td class="l">' + esc(w.title) + '</td><td>' + w.results + '</td><td>' + w.feasible + '</td><td>' + w.within + '</td><td>' + w.front + '</td><td>' + w.ranks +
        '</td><td>' + (!w.within || w.hypervolume === null ? '–' : sig(w.hypervolume, 6) + (w.hypervolume_exact ? '' : ' ± ' + sig(w.hypervolume_error, 2))) + '</td><td class="l wrap">' +
        (w.knee === null ? '–' : esc(designLabel(w.knee))) + '</td>' +
        ['latency_s', 'throughput_inf_per_s', 'energy_per_inf_j', 'area_mm2', 'cost_usd'].filter((n) => M[n] !== undefined).map((n) => '<td>' + (w.knee === null ? '–' : fm(n, w.knee)) + '</td>').join('') + '</tr>';
    });
    t += '</table></div>';
    sec.appendChild(h('div', {}, t));
    sec.appendChild(h('p', { class: 'note' }, 'A design is on its workload\'s front when no other design within the budgets is as good in every objective and better in one (rank 0; rank r: beaten only by ranks below r).  ' +
      'The hypervolume is the objective space the front dominates up to the reference point of docs/pareto.md, in the objectives\' own units multiplied; it grows as the front improves.  ' +
      'The knee is the front\'s design nearest its ideal with every objective scaled to [0, 1] over the front.  Click any design in a chart to pin it below the scatter.'));
    main.appendChild(sec);
  }

  function section(id, title, note) {
    const sec = h('section', { id: id + '-sec' });
    sec.appendChild(h('h2', {}, esc(title)));
    const ctl = h('div', { class: 'controls', id: id + '-ctl' });
    sec.appendChild(ctl);
    const body = h('div', { id: id + '-body' });
    sec.appendChild(body);
    if (note) sec.appendChild(h('p', { class: 'note' }, note));
    main.appendChild(sec);
    return { sec: sec, ctl: ctl, body: body };
  }

  /* Why a workload has no knee, for the sections that start from it. */
  function noKnee(g) {
    return '<p class="note">' + esc(g.title) + ': ' + (g.feasible ? 'none of its ' + g.feasible + ' simulated results is within the budgets' :
      'none of its results was simulated') + ', so it has no front and no knee: nothing to show here.</p>';
  }

  function metricOptions() { return D.metrics.map((m, k) => ({ value: k, label: m.label + (m.unit ? ' (' + m.unit + ')' : '') })); }
  function paramOptions(withNone) {
    const o = D.params.map((p, c) => ({ value: c, label: p.name })).filter((o2) => D.params[o2.value].values.length > 1);
    if (withNone) o.unshift({ value: -1, label: '(none)' });
    return o;
  }

  function drawPinned() {
    const el = document.getElementById('pinned');
    if (!el) return;
    const r = S.pinned;
    el.classList.toggle('empty', r === null);
    if (r === null) { el.innerHTML = '<span class="muted">Click a design to pin it here.</span>'; return; }
    let html = '<b>Pinned: point ' + R.point[r] + ', ' + esc(D.workloads[R.workload[r]].title) + '</b> ' + (rankText(r) ? '(' + esc(rankText(r)) + ')' : '') + '<br>';
    D.params.forEach((p, c) => { if (pv(c, r) !== null) html += '<span class="kv">' + esc(p.name) + ' <b>' + esc(pv(c, r)) + '</b></span>'; });
    html += '<br>';
    D.metrics.forEach((m, k) => { if (isFinite(mv(k, r))) html += '<span class="kv">' + esc(m.label) + ' <b>' + esc(fmt(mv(k, r), m.unit, m.name)) + '</b></span>'; });
    if (layerDesigns(R.workload[r]).some((d) => d.row === r)) html += '<br>Its layers are in the roofline and per-layer charts below.';
    else html += '<br><span class="muted">The report keeps the layers of each workload\'s knee and of some of its front\'s designs (dse report --layers N, 24 by default); this design\'s are not in it.</span>';
    el.innerHTML = html;
  }

  function pin(datum) {
    if (datum.row === undefined) return;
    S.pinned = datum.row;
    if (layerDesigns(S.w).some((d) => d.row === datum.row)) S.design = datum.row;
    drawPinned();
    drawPareto();
    drawDesign();
  }

  function drawPareto() {
    const c = document.getElementById('pareto-ctl');
    c.innerHTML = '';
    c.appendChild(select('x', metricOptions(), S.x, (v) => { S.x = Number(v); S.logx = null; drawPareto(); }));
    c.appendChild(select('y', metricOptions(), S.y, (v) => { S.y = Number(v); S.logy = null; drawPareto(); }));
    c.appendChild(select('colour', paramOptions(true), S.color, (v) => { S.color = Number(v); drawPareto(); drawParallel(); }));
    const built = paretoSpec(S.w, S.x, S.y, S.color, S.logx, S.logy);
    c.appendChild(checkbox('log x', built.spec.scales[0].type === 'log', (v) => { S.logx = v; drawPareto(); }));
    c.appendChild(checkbox('log y', built.spec.scales[1].type === 'log', (v) => { S.logy = v; drawPareto(); }));
    return render('pareto', built, pin);
  }

  function drawParallel() {
    const el = document.getElementById('parallel-body');
    if (NOBJ < 3) { el.innerHTML = '<p class="note">The sweep has ' + NOBJ + ' objectives: the scatter above shows them all.</p>'; return Promise.resolve(); }
    if (!document.getElementById('parallel')) el.innerHTML = '<div class="chart" id="parallel"></div>';
    if (!D.workloads[S.w].front_rows.length) { document.getElementById('parallel').innerHTML = '<p class="note">No front.</p>'; return Promise.resolve(); }
    return render('parallel', parallelSpec(S.w), pin);
  }

  function drawMemories() {
    const g = D.workloads[S.w];
    const body = document.getElementById('memories-body');
    if (g.knee === null) { body.innerHTML = noKnee(g); return Promise.resolve(); }
    if (D.memory < 0) {
      body.innerHTML = '<p class="note">The sweep does not vary the memory system (no dram parameter).</p>';
      return Promise.resolve();
    }
    const mems = D.params[D.memory].values;
    const ks = CMP.filter((n) => M[n] !== undefined);
    let t = '<div class="scroll"><table><tr><th class="l">memory</th><th>peak bandwidth</th><th>capacity</th>' + ks.map((n) => '<th>' + esc(headTitle(M[n]).toLowerCase()) + '</th>').join('') + '</tr>';
    mems.forEach((m, v) => {
      const r = g.compare[v];
      const mm = D.memories[v] || {};
      t += '<tr' + (r === g.knee ? ' class="knee"' : '') + '><td class="l">' + esc(m) + (r === g.knee ? ' (the knee\'s)' : '') + '</td><td>' + fmt(mm.bandwidth, 'B/s') + '</td><td>' + fmt(mm.capacity, 'B') + '</td>';
      ks.forEach((n) => {
        if (r === null) t += '<td class="na">not swept</td>';
        else if (!ok(r)) t += '<td class="na">' + esc(D.statuses[R.status[r]]) + '</td>';
        else t += '<td>' + fm(n, r) + '</td>';
      });
      t += '</tr>';
    });
    t += '</table></div>';
    const ref = pv(D.memory, g.knee);
    t += '<h3>Each memory against ' + esc(ref) + ' over every configuration simulated with both</h3><div class="scroll"><table><tr><th class="l">memory</th><th>pairs</th><th>not simulated</th><th>latency (median ratio)</th><th>energy (median ratio)</th><th>unit cost (median difference)</th></tr>';
    mems.forEach((m, v) => {
      const q = g.pairs[v];
      t += '<tr><td class="l">' + esc(m) + '</td><td>' + q.pairs + '</td><td>' + q.lost + '</td><td>' + (q.pairs ? sig(q.latency, 3) + '×' : '–') + '</td><td>' + (q.pairs ? sig(q.energy, 3) + '×' : '–') +
        '</td><td>' + (q.cost === null ? '–' : (q.cost >= 0 ? '+' : '−') + fmt(Math.abs(q.cost), '$')) + '</td></tr>';
    });
    t += '</table></div><p class="note"><i>Not simulated</i>: the configurations ' + esc(ref) + ' has where this memory\'s result was pruned (its level-1 floor dominated), infeasible or failed.  ' +
      'They are left out of the medians, and they are where this memory did worst: a memory with many of them looks better here than it is.</p>';
    body.innerHTML = '<div class="chart" id="memories"></div>' + t;
    return render('memories', memorySpec(S.w), pin);
  }

  function drawDesign() {
    const w = S.w;
    const d = currentDesign(w);
    const ctl = document.getElementById('roofline-ctl');
    ctl.innerHTML = '';
    const rb = document.getElementById('roofline-body'), lb = document.getElementById('layers-body');
    if (!d) {
      const g = D.workloads[w];
      const msg = g.knee === null ? noKnee(g) : '<p class="note">The source holds no layers of this workload\'s designs: a store keeps them when its sweep ran with <code>layers = true</code>; ' +
        '<code>dse export</code>\'s CSV and JSON do not carry them (report the store itself).</p>';
      rb.innerHTML = msg;
      lb.innerHTML = msg;
      return Promise.resolve();
    }
    const opts = layerDesigns(w).map((x) => ({ value: x.row, label: (x.row === D.workloads[w].knee ? 'the knee: ' : '') + designLabel(x.row) }));
    ctl.appendChild(select('design', opts, d.row, (v) => { S.design = Number(v); drawDesign(); }));
    if (!document.getElementById('roofline')) rb.innerHTML = '<div class="chart" id="roofline"></div>';
    if (!document.getElementById('layer-latency')) lb.innerHTML = '<div class="scroll"><div class="chart" id="layer-latency"></div><div class="chart" id="layer-utilization"></div></div>';
    return Promise.all([render('roofline', rooflineSpec(w, d), null), render('layer-latency', layerBarsSpec(w, d, 'latency'), null),
      render('layer-utilization', layerBarsSpec(w, d, 'utilization'), null)]);
  }

  function drawBreakdown() {
    const g = D.workloads[S.w];
    const out = [];
    ['energy', 'area', 'cost'].forEach((which) => {
      const el = document.getElementById(which + '-stack');
      if (!g.front_rows.length) { el.innerHTML = which === 'energy' ? noKnee(g) : ''; return; }
      if (!D.parts[which].length || !g.front_rows.length) { el.innerHTML = '<p class="note">No ' + which + ' breakdown in the results (' + (which === 'energy' ? 'energy' : which === 'area' ? 'the arch names no technology.node' : 'no unit cost modelled') + ').</p>'; return; }
      out.push(render(which + '-stack', stackSpec(S.w, which), pin));
    });
    return Promise.all(out);
  }

  function drawSensitivity() {
    const ctl = document.getElementById('sensitivity-ctl');
    const body = document.getElementById('sensitivity-body');
    ctl.innerHTML = '';
    const g = D.workloads[S.w];
    const out = [];
    if (g.knee === null) {
      body.innerHTML = noKnee(g);
    } else if (S.sensParam < 0) {
      body.innerHTML = '<p class="note">No parameter varies: nothing to vary.</p>';
    } else {
      ctl.appendChild(select('parameter', paramOptions(false), S.sensParam, (v) => { S.sensParam = Number(v); drawSensitivity(); }));
      ctl.appendChild(select('metric', metricOptions(), S.sensMetric, (v) => { S.sensMetric = Number(v); drawSensitivity(); }));
      if (!document.getElementById('sensitivity')) body.innerHTML = '<div class="row"><div class="chart" id="sensitivity"></div><div class="chart" id="scaling"></div></div>';
      out.push(render('sensitivity', sensitivitySpec(S.w, S.sensParam, S.sensMetric), pin));
    }
    const sc = g.knee === null ? null : document.getElementById('scaling');
    if (sc) {
      if (g.scaling && g.scaling.rows.length && M.pes !== undefined && M.throughput_inf_per_s !== undefined) out.push(render('scaling', scalingSpec(S.w), pin));
      else sc.innerHTML = '<p class="note">No PE-count parameter varies at the knee\'s memory and SRAM: no scalability chart.</p>';
    }
    return Promise.all(out);
  }

  /* Why a design is in the table: "the knee of resnet50 (batch 8); best
   * latency of ...". */
  function whyText(d) {
    const why = [];
    d.why.forEach((bits, w) => {
      const t = D.workloads[w].title;
      if (bits & 1) why.push('the knee of ' + t);
      for (let k = 0; k < NOBJ; k++) if (bits & (2 << k)) why.push('best ' + D.metrics[objMetric[k]].label.toLowerCase() + ' of ' + t);
    });
    return why.join('; ');
  }

  function drawDesigns() {
    const body = document.getElementById('designs-table');
    if (!D.designs.length) {
      body.innerHTML = '<p class="note">No workload has a front: no design to show.</p>';
      document.getElementById('flexibility').innerHTML = '';
      return Promise.resolve();
    }
    const cols = ['latency_s', 'throughput_inf_per_s', 'energy_per_inf_j', 'tops_per_w', 'utilization'].filter((n) => M[n] !== undefined);
    const nw = D.workloads.length;
    let t = '<div class="scroll"><table><tr><th>#</th><th class="l">design</th><th class="l">why it is here</th><th class="l">workload</th>' +
      cols.map((n) => '<th>' + esc(headTitle(M[n]).toLowerCase()) + '</th>').join('') +
      '<th>die area</th><th>unit cost</th><th>utilization mean</th><th>spread</th></tr>';
    D.designs.forEach((d, j) => {
      d.in.forEach((r, w) => {
        t += '<tr' + (w === nw - 1 ? ' class="last"' : '') + '>';
        if (!w) t += '<td rowspan="' + nw + '">' + (j + 1) + '</td><td class="l wrap" rowspan="' + nw + '">' + esc(designLabel(d.row)) +
          '</td><td class="l small wrap" rowspan="' + nw + '">' + esc(whyText(d)) + '</td>';
        t += '<td class="l">' + esc(D.workloads[w].title) + '</td>';
        cols.forEach((n) => {
          if (r === null) t += '<td class="na">–</td>';
          else if (!ok(r)) t += '<td class="na">' + esc(D.statuses[R.status[r]]) + '</td>';
          else t += '<td>' + fm(n, r) + '</td>';
        });
        if (!w) {
          const part = d.simulated < nw ? ' <span class="muted small">(' + d.simulated + ' of ' + nw + ' workloads)</span>' : '';
          t += '<td rowspan="' + nw + '">' + fm('area_mm2', d.row) + '</td><td rowspan="' + nw + '">' + fm('cost_usd', d.row) + '</td><td rowspan="' + nw + '">' +
            fmt(d.utilization_mean, '', 'utilization') + part + '</td><td rowspan="' + nw + '">' + fmt(d.utilization_spread, '', 'utilization') + part + '</td>';
        }
        t += '</tr>';
      });
    });
    t += '</table></div>';
    body.innerHTML = t;
    return render('flexibility', flexibilitySpec(), pin);
  }

  function drawWorkload() {
    drawPinned();
    return Promise.all([drawPareto(), drawParallel(), drawMemories(), drawDesign(), drawBreakdown(), drawSensitivity()]);
  }

  function build() {
    header();
    if (errors.length) main.appendChild(h('p', { class: 'err' }, esc(errors.join('; '))));
    overview();
    let s = section('pareto', 'Pareto front', 'Each simulated design of the workload; the axes and the colour are yours to choose.  Outlined designs are on the front of the sweep\'s ' + NOBJ +
      ' objectives (' + esc(objectivesText()) + '); the dashed staircase is the front of the two axes shown; faint designs are over a budget.  Hover for a design\'s parameters, click to pin it.');
    s.body.innerHTML = '<div class="chart" id="pareto"></div><div class="pin" id="pinned"></div>';
    s = section('parallel', 'All objectives: the front in parallel coordinates', 'One line per design on the front, one axis per objective; a maximized objective\'s axis is flipped so that lower is better on every axis.');
    s = section('memories', 'Memories at equal compute', 'The knee\'s PE array, SRAM and every other parameter held, the memory varied: what each memory technology gives.  A pruned result was not simulated: its level-1 floor, which no mapping beats, was already dominated by a simulated design.  The second table compares each memory with the knee\'s over every configuration the sweep simulated with both.');
    s = section('roofline', 'Roofline', 'A layer below a bandwidth roof is memory-bound on that memory; under the flat roof, compute-bound.  Points are placed at each layer\'s operational intensity (ops per DRAM byte) and achieved rate (ops/s) on the chosen design; the other memories\' roofs show where a layer would move with them.');
    s = section('layers', 'Per-layer latency and utilization', 'The chosen design\'s layers in workload order (the design is chosen above the roofline); the latency bars\' colour is the layer\'s side of the ridge.');
    s = section('breakdown', 'Where energy, area and cost go', 'Each design on the front, by the first objective.  Energy per inference by component (MAC, registers, NoC, each SRAM buffer, DRAM by activation, read/write, I/O, refresh and background, leakage, clock); area by block; unit cost by item (docs/energy.md, docs/cost.md).');
    s.body.innerHTML = '<div class="chart" id="energy-stack"></div><div class="row"><div class="chart" id="area-stack"></div><div class="chart" id="cost-stack"></div></div>';
    s = section('sensitivity', 'Sensitivity and scalability', 'First: one metric against one parameter, every other parameter held at the knee\'s value (the y axis from 0).  Then: throughput against the PE count with the memory, SRAM and every other parameter held, against ideal linear scaling.');
    s = section('designs', 'Designs side by side', 'Sze et al.\'s metrics a sweep measures, for each workload\'s knee and its best design on each objective: latency, throughput, energy and efficiency per workload, die area and unit cost, and flexibility (the PE utilization across the workloads, its mean and spread).');
    s.body.innerHTML = '<div id="designs-table"></div><div class="chart" id="flexibility"></div>';
    return Promise.all([drawWorkload(), drawDesigns()]);
  }

  /* ===== self-test (#selftest) ============================================== */

  function countMarks(view, name) {
    let n = 0;
    (function walk(node) {
      if (!node) return;
      if (node.marktype && node.name === name) n += node.items.length;
      if (node.items) node.items.forEach((it) => { if (it.items) it.items.forEach(walk); });
    }(view.scenegraph().root));
    return n;
  }
  function firstItem(view, name) {
    let found = null;
    (function walk(node) {
      if (!node || found) return;
      if (node.marktype && node.name === name && node.items.length) { found = node.items[0]; return; }
      if (node.items) node.items.forEach((it) => { if (it.items) it.items.forEach(walk); });
    }(view.scenegraph().root));
    return found;
  }
  function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

  /* Hover over the first item of mark `name` as a mouse would: the events at
   * its centre on the element under it. */
  async function hover(id, name) {
    const v = live[id].view, it = firstItem(v, name);
    if (!it) return null;
    const b = it.bounds, o = v.origin();
    let cx, cy;
    if (it._svg) { /* (the SVG renderer's element of the item) */
      const r = it._svg.getBoundingClientRect();
      cx = r.left + r.width / 2;
      cy = r.top + r.height / 2;
    } else {
      const rect = v.container().querySelector('canvas').getBoundingClientRect(), pad = v.padding();
      cx = rect.left + pad.left + o[0] + (b.x1 + b.x2) / 2;
      cy = rect.top + pad.top + o[1] + (b.y1 + b.y2) / 2;
    }
    const target = document.elementFromPoint(cx, cy) || v.container();
    ['pointermove', 'mousemove'].forEach((type) => {
      const Ctor = type === 'pointermove' && window.PointerEvent ? PointerEvent : MouseEvent;
      target.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, clientX: cx, clientY: cy, view: window }));
    });
    await sleep(50);
    hover.debug = { cx: cx, cy: cy, tag: target.tagName, svg: !!it._svg, b: [b.x1, b.y1, b.x2, b.y2], o: o, sh: [window.innerWidth, window.innerHeight, window.scrollY] };
    return tooltipEl.style.display === 'block' ? tooltipEl.textContent : '';
  }

  async function selftest() {
    const out = { ok: true, errors: [], charts: {}, checks: [] };
    const fail = (msg) => { out.ok = false; out.checks.push('FAIL ' + msg); };
    const pass = (msg) => out.checks.push('ok ' + msg);
    Object.keys(live).forEach((id) => {
      const c = live[id];
      const got = {};
      Object.keys(c.expect).forEach((name) => {
        got[name] = countMarks(c.view, name);
        if (got[name] !== c.expect[name]) fail(id + ': mark ' + name + ' drew ' + got[name] + ', expected ' + c.expect[name]);
      });
      out.charts[id] = { marks: got, expect: c.expect, svg: !!c.view.container().querySelector('svg') };
    });
    /* the 2-D front of the default axes, found here, is the one dse found */
    const w = S.w;
    if (NOBJ >= 2) {
      const mine = live.pareto.built.front2.slice().sort((a, b) => a - b);
      const theirs = rowsOf(w).filter((r) => R.front2[r]);
      if (mine.join(',') === theirs.join(',')) pass('the page\'s 2-D front is dse\'s (' + mine.length + ' designs)');
      else fail('the page\'s 2-D front (' + mine.join(',') + ') is not dse\'s (' + theirs.join(',') + ')');
    }
    /* hover: the first design point names its parameters */
    const text = await hover('pareto', 'points');
    out.hover = text;
    out.hover_debug = hover.debug;
    const named = D.params.filter((p) => text && text.indexOf(p.name) >= 0).map((p) => p.name);
    if (text && named.length === D.params.length) pass('the hover text names every parameter');
    else fail('the hover text (' + JSON.stringify(text) + ') does not name every parameter');
    tooltipEl.style.display = 'none';
    out.errors = errors.slice();
    if (errors.length) out.ok = false;
    out.workload = D.workloads[w].title;
    out.render_ms = renderMs; /* from the page's start (navigation) to every chart drawn */
    out.layers = currentDesign(w) ? currentDesign(w).n : 0;
    const pre = h('pre', { id: 'dse-selftest', class: 'selftest' });
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }

  /* ===== static charts (#static) =========================================== */

  function b64(s) {
    const bytes = new TextEncoder().encode(s);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }
  async function staticCharts() {
    const lines = [];
    const pre = h('pre', { id: 'dse-static', class: 'selftest' });
    try {
      const jobs = [];
      D.workloads.forEach((g, w) => {
        const s = slug(w);
        jobs.push(['pareto-' + s, paretoSpec(w, S.x, S.y, S.color, null, null)]);
        if (NOBJ >= 3 && g.front_rows.length) jobs.push(['parallel-' + s, parallelSpec(w)]);
        if (D.memory >= 0 && g.knee !== null) jobs.push(['memories-' + s, memorySpec(w)]);
        const d = currentDesign(w);
        if (d) {
          jobs.push(['roofline-' + s, rooflineSpec(w, d)]);
          jobs.push(['layer-latency-' + s, layerBarsSpec(w, d, 'latency')]);
          jobs.push(['layer-utilization-' + s, layerBarsSpec(w, d, 'utilization')]);
        }
        ['energy', 'area', 'cost'].forEach((which) => { if (D.parts[which].length && g.front_rows.length) jobs.push([which + '-' + s, stackSpec(w, which)]); });
        if (g.knee !== null) varying.forEach((c) => jobs.push(['sensitivity-' + s + '-' + D.params[c].name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), sensitivitySpec(w, c, S.sensMetric)]));
        if (g.scaling && g.scaling.rows.length && M.pes !== undefined) jobs.push(['scalability-' + s, scalingSpec(w)]);
      });
      if (D.designs.length) jobs.push(['flexibility', flexibilitySpec()]);
      for (const j of jobs) {
        const view = new vega.View(vega.parse(j[1].spec), { renderer: 'none' });
        const svg = await view.toSVG();
        const png = await view.toImageURL('png', 2);
        view.finalize();
        lines.push(j[0] + ' ' + b64(svg) + ' ' + png.replace(/^data:image\/png;base64,/, ''));
      }
      lines.push('end ' + jobs.length);
    } catch (e) {
      lines.push('error ' + String(e && e.message ? e.message : e).replace(/\s+/g, ' '));
    }
    pre.textContent = lines.join('\n');
    document.body.appendChild(pre);
  }

  /* #shot: the page as the README shows it: the first workload's knee
   * pinned, its tooltip up. */
  async function shot() {
    const k = D.workloads[S.w].knee;
    if (k === null) return;
    pin({ row: k });
    await sleep(100);
    await hover('pareto', 'knee_mark');
  }

  if (MODE === 'static') {
    staticCharts();
  } else {
    build().then(() => {
      renderMs = performance.now();
      return MODE === 'selftest' ? selftest() : MODE === 'shot' ? shot() : null;
    }).catch((e) => {
      errors.push(String(e && e.stack ? e.stack : e));
      main.appendChild(h('p', { class: 'err' }, 'The page failed: ' + esc(String(e))));
      if (MODE === 'selftest') selftest();
    });
  }
}());
