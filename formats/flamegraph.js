function flamegraph(svg, id) {
	// Zoom, search and details for one flame graph. Everything is looked
	// up under this graph's own <svg>, so that several graphs can live in
	// one page. Frame names are only ever read and written as text.
	"use strict";
	if (!svg)
		return;
	function part(name) {
		return svg.querySelector("[id='" + id + "-" + name + "']");
	}
	var framesg = part("frames"), details = part("details");
	var unzoombtn = part("unzoom"), searchbtn = part("search");
	var icbtn = part("ignorecase"), matchedtxt = part("matched");
	if (!framesg || !details)
		return;
	var nametype = framesg.getAttribute("data-nametype") || "";
	var fontwidth = parseFloat(framesg.getAttribute("data-fontwidth")) || 0.59;
	var frames = [], searching = null, ignorecase = false, fudge = 0.0001;

	// The frames in document order (the root first), with their
	// geometry as drawn.
	for (var i = 0; i < framesg.children.length; i++) {
		var g = framesg.children[i];
		var title = null, rect = null, text = null;
		var all = g.getElementsByTagName("*");
		for (var j = 0; j < all.length; j++) {
			var tag = all[j].localName;
			if (tag === "title" && !title) title = all[j];
			else if (tag === "rect" && !rect) rect = all[j];
			else if (tag === "text" && !text) text = all[j];
		}
		if (!title || !rect || !text)
			continue;
		var info = title.textContent;
		var cut = info.lastIndexOf(" (");
		frames.push({
			g: g, rect: rect, text: text, info: info,
			name: cut >= 0 ? info.substring(0, cut) : info,
			x: parseFloat(rect.getAttribute("x")),
			w: parseFloat(rect.getAttribute("width")),
			y: parseFloat(rect.getAttribute("y")),
			fill: rect.getAttribute("fill")
		});
		g.fgIndex = frames.length - 1;
	}
	if (frames.length === 0)
		return;
	var xpad = frames[0].x, fullw = frames[0].w;
	var inverted = frames.length > 1 && frames[1].y > frames[0].y;
	var fontsize = parseFloat(getComputedStyle(frames[0].text).fontSize) || 12;

	function frameof(e) {
		while (e && e !== framesg) {
			if (e.parentNode === framesg && e.fgIndex !== undefined)
				return frames[e.fgIndex];
			e = e.parentNode;
		}
		return null;
	}

	// Fits the name into the frame, ending in ".." when cut.
	function fittext(f, x, w) {
		var t = f.text, txt = f.name;
		t.setAttribute("x", (x + 3).toFixed(2));
		w -= 3;
		if (w < 2 * fontsize * fontwidth) {
			t.textContent = "";
			return;
		}
		t.textContent = txt;
		var len = t.getComputedTextLength();
		if (/^ *$/.test(txt) || len <= w)
			return;
		var n = Math.floor(txt.length * w / len);
		for (; n > 0; n--) {
			if (t.getSubStringLength(0, Math.min(n + 2, txt.length)) <= w) {
				t.textContent = txt.substring(0, n) + "..";
				return;
			}
		}
		t.textContent = "";
	}

	function place(f, x, w, cls) {
		f.rect.setAttribute("x", x.toFixed(1));
		f.rect.setAttribute("width", w.toFixed(1));
		f.g.classList.remove("hide");
		if (cls) f.g.classList.add("parent");
		else f.g.classList.remove("parent");
		fittext(f, x, w);
	}

	function zoom(z) {
		var xmin = z.x, xmax = z.x + z.w, ratio = fullw / z.w;
		unzoombtn.classList.remove("hide");
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i];
			var upstack = inverted ? f.y < z.y : f.y > z.y;
			if (upstack) {
				if (f.x <= xmin + fudge && f.x + f.w + fudge >= xmax)
					place(f, xpad, fullw, true);
				else
					f.g.classList.add("hide");
			} else if (f.x < xmin - fudge || f.x + fudge >= xmax) {
				f.g.classList.add("hide");
			} else {
				place(f, xpad + (f.x - xmin) * ratio, f.w * ratio,
				    false);
			}
		}
		if (searching !== null) search(searching);
	}

	function unzoom() {
		unzoombtn.classList.add("hide");
		for (var i = 0; i < frames.length; i++)
			place(frames[i], frames[i].x, frames[i].w, false);
		if (searching !== null) search(searching);
	}

	function resetsearch() {
		for (var i = 0; i < frames.length; i++)
			frames[i].rect.setAttribute("fill", frames[i].fill);
		searching = null;
		searchbtn.classList.remove("show");
		searchbtn.textContent = "Search";
		matchedtxt.classList.add("hide");
	}

	// Highlights the frames whose name matches and shows the share of
	// the graph they cover (nested matches counted once).
	function search(term) {
		var re;
		try {
			re = new RegExp(term, ignorecase ? "i" : "");
		} catch (err) {
			matchedtxt.classList.remove("hide");
			matchedtxt.textContent = "Invalid regular expression";
			return;
		}
		resetsearch();
		searching = term;
		var spans = [];
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i];
			if (i > 0 && re.test(f.name)) {
				f.rect.setAttribute("fill", "rgb(230,0,230)");
				spans.push([f.x, f.w]);
			}
		}
		spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
		var covered = 0, end = -Infinity;
		for (var k = 0; k < spans.length; k++) {
			var s = spans[k][0], e = s + spans[k][1];
			if (s >= end - fudge) {
				covered += e - s;
				end = e;
			} else if (e > end) {
				covered += e - end;
				end = e;
			}
		}
		var pct = 100 * covered / fullw;
		searchbtn.classList.add("show");
		searchbtn.textContent = "Reset Search";
		matchedtxt.classList.remove("hide");
		matchedtxt.textContent = "Matched: " +
		    (pct >= 100 - 1e-9 ? "100" : pct.toFixed(1)) + "%";
	}

	function askterm() {
		var term = window.prompt("Enter a search term (regexp allowed, " +
		    "eg: ^ext4_)" + (ignorecase ? ", ignoring case" : "") +
		    "\nPress Ctrl-i to toggle case sensitivity", "");
		if (term !== null && term !== "") search(term);
	}

	function togglecase() {
		ignorecase = !ignorecase;
		if (ignorecase) icbtn.classList.add("show");
		else icbtn.classList.remove("show");
		if (searching !== null) search(searching);
	}

	framesg.addEventListener("mouseover", function (ev) {
		var f = frameof(ev.target);
		if (f) details.textContent = nametype + " " + f.info;
	});
	framesg.addEventListener("mouseout", function (ev) {
		if (frameof(ev.target)) details.textContent = " ";
	});
	framesg.addEventListener("click", function (ev) {
		var f = frameof(ev.target);
		if (!f) return;
		zoom(f);
		ev.preventDefault();
	});
	unzoombtn.addEventListener("click", unzoom);
	searchbtn.addEventListener("click", function () {
		if (searching === null) askterm();
		else resetsearch();
	});
	icbtn.addEventListener("click", togglecase);

	// Ctrl-F searches (F3 too), Ctrl-I toggles case: in a page holding
	// several graphs, the one last under the pointer takes the keys.
	var active = svg.ownerDocument.documentElement === svg;
	svg.addEventListener("mouseenter", function () { active = true; });
	svg.addEventListener("mouseleave", function () {
		active = svg.ownerDocument.documentElement === svg;
	});
	window.addEventListener("keydown", function (ev) {
		if (!active) return;
		if (ev.keyCode === 114 || (ev.ctrlKey && ev.keyCode === 70)) {
			ev.preventDefault();
			askterm();
		} else if (ev.ctrlKey && ev.keyCode === 73) {
			ev.preventDefault();
			togglecase();
		}
	});
	matchedtxt.classList.add("hide");
}
