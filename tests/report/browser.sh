#!/bin/bash
# browser.sh: the report page in a real browser (issue 14, docs/report.md
# "Testing the page").  The main job's corner (scripts/sweep.lua ... small:
# level 2, six memories, three workloads, layers kept) is reported, and
# Debian's headless Chromium loads index.html#selftest: the page draws
# every chart, then writes what it drew into the document, which Chromium
# dumps.  The test fails on any console error; checks that every chart drew
# the marks it should (the counts the page expects, and independently: a
# point per simulated design of the first workload, counted here from
# data.csv, and a mark per layer of the knee, counted from `dse show
# workload`); that the hover text of a design names every parameter; that
# the page's own 2-D front of the first two objectives is dse's.  It keeps
# a screenshot of the page as a test artefact (ARTIFACTS, default
# build/test-artifacts/report.png), and checks `dse report --static`: a
# SVG and a PNG per chart.  Without Chromium it is skipped (exit 77): CI
# installs it (scripts/install-deps.sh test).
. "$SRC/tests/cli/lib.sh"

CHROMIUM=${DSE_CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: no headless Chromium (apt-get install chromium)"
  exit 77
fi
ARTIFACTS=${ARTIFACTS:-$(pwd)/test-artifacts}
mkdir -p "$ARTIFACTS"
# the flags the environment needs: no sandbox as root, no network at all
chrome() {
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars \
    --user-data-dir="$TMP/profile" "$@"
}

run "$DSE" run "$SRC/scripts/sweep.lua" "$TMP/run" small; expect_code 0 "the main job's corner"
run "$DSE" report "$TMP/run/sweep.db" -o "$TMP/rep"; expect_code 0 "dse report"
expect_out "designs' layers" "dse report"

chrome --window-size=1280,2000 --virtual-time-budget=30000 --enable-logging=stderr --v=0 \
  --dump-dom "file://$TMP/rep/index.html#selftest" >"$TMP/dom.html" 2>"$TMP/chrome.err"
[ -s "$TMP/dom.html" ] && ok || bad "Chromium dumped no document: $(tail -3 "$TMP/chrome.err")"
# any console message the page logged as an error, or an uncaught one
grep -E 'CONSOLE.*("Uncaught|ERROR|Error)|:ERROR:CONSOLE' "$TMP/chrome.err" >"$TMP/console" && {
  bad "console errors:"; head -5 "$TMP/console" >&2; } || ok
grep -o '<pre id="dse-selftest" class="selftest">[^<]*</pre>' "$TMP/dom.html" |
  sed -e 's/^<pre[^>]*>//' -e 's/<\/pre>$//' -e 's/&quot;/"/g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' >"$TMP/selftest.json"
[ -s "$TMP/selftest.json" ] && ok || bad "the page wrote no self-test (it failed before the end)"
# the layers of resnet50, the first workload (the knee's design is shown first)
run "$DSE" show workload resnet50 --batch 8; expect_code 0 "show workload"
NLAYERS=$(echo "$OUT" | sed -n 's/^workload resnet50: batch 8, \([0-9]*\) layers.*/\1/p')
python3 - "$TMP/selftest.json" "$TMP/rep/data.csv" "$NLAYERS" <<'PY' && ok || bad "the self-test"
import csv, json, sys
st = json.load(open(sys.argv[1]))
for c in st["checks"]:
    print("  page:", c)
assert not st["errors"], st["errors"]
assert st["ok"], st["checks"]
charts = st["charts"]
want = {"pareto", "parallel", "memories", "roofline", "layer-latency", "layer-utilization", "energy-stack",
        "area-stack", "cost-stack", "sensitivity", "scaling", "flexibility"}
assert want <= set(charts), sorted(want - set(charts))
for name, c in charts.items():
    assert c["marks"] == c["expect"], (name, c)
    assert c["svg"], name
# a point per simulated design of the first workload, counted from data.csv
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["workload"] == "resnet50"]
ok = [r for r in rows if r["status"] == "ok"]
assert charts["pareto"]["marks"]["points"] == len(ok), (charts["pareto"], len(ok))
front = [r for r in ok if r["on_front"] == "true"]
assert charts["parallel"]["marks"]["designs"] == len(front), (charts["parallel"], len(front))
# a mark per layer of the knee, counted by dse show workload
n = int(sys.argv[3])
assert n > 100 and st["layers"] == n, (st["layers"], n)
for name in ("roofline", "layer-latency", "layer-utilization"):
    assert list(charts[name]["marks"].values())[0] == n, (name, charts[name])
# the hover text names the design's parameters
for p in ("pe_array.rows", "pe_array.cols", "buffers.2.size", "memory"):
    assert p in st["hover"], (p, st["hover"])
print("  page: rendered in %.0f ms" % st["render_ms"])
PY
# a screenshot of the whole page, kept
chrome --window-size=1280,6400 --virtual-time-budget=30000 --screenshot="$TMP/shot.png" \
  "file://$TMP/rep/index.html" >/dev/null 2>&1
python3 - "$TMP/shot.png" <<'PY' && ok || bad "the screenshot"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (1280, 6400) and len(b) > 100000, (w, h, len(b))
PY
cp "$TMP/shot.png" "$ARTIFACTS/report.png" && echo "screenshot: $ARTIFACTS/report.png"

# results pruned under the sweep's objectives: a report over others warns,
# over some of them does not
run "$DSE" report "$TMP/run/sweep.db" -o "$TMP/rep-power" --objectives power_w,energy_j; expect_code 0 "other objectives"
expect_err "results were pruned by their level-1 floors under the sweep's objectives (latency_s, energy_j, area_mm2, cost_usd), not simulated" "other objectives: warned"
grep -q '"warnings":\["[0-9]* results were pruned' "$TMP/rep-power/index.html" && ok || bad "other objectives: the page lacks the warning"
run "$DSE" report "$TMP/run/sweep.db" -o "$TMP/rep-two" --objectives latency_s,energy_j --constraints 'cost_usd<=150'
expect_code 0 "some of the objectives"
[ -z "$ERR" ] && ok || bad "some of the objectives: a warning: $ERR"

# --static: each chart as SVG and PNG, from the page's own specs
run "$DSE" report "$TMP/run/sweep.db" -o "$TMP/rep-static" --static; expect_code 0 "--static"
nsvg=$(ls "$TMP/rep-static/charts/"*.svg 2>/dev/null | wc -l)
npng=$(ls "$TMP/rep-static/charts/"*.png 2>/dev/null | wc -l)
[ "$nsvg" -ge 30 ] && [ "$nsvg" = "$npng" ] && ok || bad "--static: $nsvg SVG and $npng PNG files"
python3 - "$TMP/rep-static/charts" <<'PY' && ok || bad "--static's files"
import os, sys, xml.dom.minidom
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    b = open(os.path.join(d, f), "rb").read()
    if f.endswith(".svg"):
        doc = xml.dom.minidom.parseString(b)  # well-formed XML
        assert doc.documentElement.tagName == "svg", f
    else:
        assert b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) > 2000, f
for w in ("resnet50-b8", "gpt2-prefill-1024-b1", "gpt2-decode-1024-b8"):
    for c in ("pareto", "roofline", "energy", "memories"):
        assert os.path.exists(os.path.join(d, "%s-%s.svg" % (c, w))), (c, w)
PY
cmp -s "$TMP/rep-static/index.html" "$TMP/rep/index.html" && ok || bad "--static: index.html differs"
finish
