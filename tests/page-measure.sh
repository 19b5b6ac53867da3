#!/usr/bin/env bash
# usage: page-measure.sh PAGE.html
# Render PAGE in headless Chromium at 1400x1000 (the window the status page
# is read in) with a measuring script added, and print what the browser laid
# out as "key value" lines: width (the document's scroll width), view (the
# window's width), cells, bottom (where the matrix ends, in pixels from
# the top), tallest (the tallest cell's height), then for the first cell with details: closed
# (chips rendered before any click: 0 or 1), open (after one click on its
# summary) and shown (chips rendered after that click).
set -euo pipefail
case ${1:-} in -h | --help | '') sed -n '2,9s/^# \{0,1\}//p' "$0"; [ -n "${1:-}" ]; exit ;; esac
page=$1
[ -f "$page" ] || { echo "page-measure: no such page: $page" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r "$(dirname "$page")/." "$dir/"
cat >"$dir/measure.js" <<'EOJ'
addEventListener('load', () => {
	const r = {}, d = document.documentElement;
	r.width = d.scrollWidth;
	r.view = innerWidth;
	r.cells = document.querySelectorAll('td.cell').length;
	const t = document.querySelector('table');
	r.bottom = t ? Math.ceil(t.getBoundingClientRect().bottom) : 0;
	r.tallest = Math.max(0, ...[...document.querySelectorAll('td.cell')].map(c => c.offsetHeight));
	const s = document.querySelector('td.cell details > summary');
	const chip = s && s.parentElement.querySelector('.chip');
	if (chip) {
		r.closed = chip.checkVisibility() ? 1 : 0;
		s.click();
		r.open = s.parentElement.open ? 1 : 0;
		r.shown = chip.checkVisibility() ? 1 : 0;
	}
	const out = document.createElement('pre');
	out.id = 'kq-measure';
	out.textContent = Object.entries(r).map(([k, v]) => k + ' ' + v).join('\n');
	document.body.append(out);
});
EOJ
sed 's|</body>|<script src="measure.js"></script></body>|' "$page" >"$dir/measure.html"
timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$dir/profile" --window-size=1400,1000 --virtual-time-budget=5000 \
	--dump-dom "file://$dir/measure.html" 2>"$dir/log" >"$dir/dom" ||
	{ echo "page-measure: chromium failed: $(tail -n 1 "$dir/log")" >&2; exit 1; }
python3 - "$dir/dom" <<'EOP'
import html, re, sys
m = re.search(r'<pre id="kq-measure">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
if not m:
    sys.exit("page-measure: the measuring script did not run")
print(html.unescape(m.group(1)))
EOP
