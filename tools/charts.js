// tools/charts.js: the charts as a reader meets them, in chromium driven
// by puppeteer-core (the copy Lighthouse installs under build/lighthouse):
//
//   node tools/charts.js NODE_MODULES CHROME BASE_URL SITE_DIR [SHOTS_DIR]
//
// On the English index of a served publication (BASE_URL, its files in
// SITE_DIR):
//   - the compute chart's default range starts in 2005 or later;
//   - the mouse over a point (the one farthest from any other, so that it
//     is the nearest to the pointer) shows that model's name, a link to its
//     page, and the link resolves;
//   - Tab reaches the chart; focused, it shows the newest point of its
//     range; ArrowLeft the one before; Enter opens that model's page;
//   - at 400 px wide, on the index (both languages), the hardware index, a
//     model page and a hardware page, every chart's smallest text is 11 px
//     or more as rendered (its font-size in the SVG times the picture's
//     width on the page over its viewBox width);
//   - the chart's points (its data-points file) are the rows of its CSV.
// With SHOTS_DIR, screenshots of the index's charts at 1280 and 400 px
// with a point's label shown. Prints a line per check; exits 1 when one
// fails.
"use strict";
const fs = require("fs");
const path = require("path");

const [modules, chrome, base, site, shots] = process.argv.slice(2);
if (!modules || !chrome || !base || !site) {
	console.error("usage: node tools/charts.js NODE_MODULES CHROME BASE_URL SITE_DIR [SHOTS_DIR]");
	process.exit(2);
}
const puppeteer = require(path.resolve(modules, "puppeteer-core"));
let failed = 0;

function check(ok, what) {
	console.log("charts: " + (ok ? "ok" : "FAIL") + ": " + what);
	if (!ok) failed++;
}

// a points file: modelcatPoints("NAME", [[x, y, name, page, date, value], ...]);
function readPoints(file) {
	const text = fs.readFileSync(file, "utf8");
	const start = text.indexOf("[");
	return JSON.parse(text.slice(start, text.lastIndexOf("]") + 1));
}

// the rows of a CSV file (RFC 4180: quotes, doubled quotes, newlines in quotes)
function readCsv(file) {
	const text = fs.readFileSync(file, "utf8"), rows = [];
	let row = [], field = "", quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
			else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ",") { row.push(field); field = ""; }
		else if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
		else field += c;
	}
	if (field || row.length) { row.push(field); rows.push(row); }
	return rows;
}

// where point p is on the page: its picture's box and geometry (chart.h,
// chart_geometry: x0 x1 y0 y1 left top right bottom width height log)
function pagePosition(box, g, p) {
	const fx = (p[0] - g[0]) / (g[1] - g[0]);
	const fy = ((g[10] ? Math.log10(p[1]) : p[1]) - g[2]) / (g[3] - g[2]);
	if (fx < 0 || fx > 1 || fy < 0 || fy > 1) return null;
	return {
		x: box.x + (g[4] + fx * (g[6] - g[4])) / g[8] * box.width,
		y: box.y + (g[7] - fy * (g[7] - g[5])) / g[9] * box.height,
	};
}

async function frameOf(page, file) {
	return page.evaluate((file) => {
		const f = document.querySelector(".chart-frame[data-points='" + file + "']");
		if (!f) return null;
		const r = f.querySelector("img").getBoundingClientRect();
		return { geometry: f.getAttribute("data-geometry").split(" ").map(Number),
			 box: { x: r.x, y: r.y, width: r.width, height: r.height } };
	}, file);
}

// wait (a minute at most) for a chart's label to show
async function shown(page) {
	await page.waitForFunction(() => {
		const t = document.querySelector(".chart-tip");
		return t && !t.hidden;
	}, { timeout: 60000 });
}

async function tip(page) {
	return page.evaluate(() => {
		const t = document.querySelector(".chart-tip");
		if (!t || t.hidden) return null;
		const a = t.querySelector("a");
		return { name: a && a.textContent, href: a && a.href, text: t.textContent };
	});
}

// the smallest text of every chart picture on a page, as rendered
async function smallestText(page) {
	return page.evaluate(async () => {
		document.querySelectorAll("details").forEach((d) => { d.open = true; });
		const out = [];
		for (const img of document.querySelectorAll("img")) {
			const src = img.getAttribute("src") || "";
			if (!/\.svg$|^data:image\/svg\+xml/.test(src)) continue;
			const text = await (await fetch(img.src)).text();
			const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
			const vb = (svg.getAttribute("viewBox") || "").split(/[ ,]+/).map(Number);
			let least = Infinity;
			for (const e of [svg, ...svg.querySelectorAll("*")]) {
				const size = e.getAttribute("font-size");
				if (size !== null) least = Math.min(least, parseFloat(size));
			}
			if (!svg.querySelector("text")) continue;
			const width = img.getBoundingClientRect().width;
			out.push({ src: src.slice(0, 60), px: least * width / vb[2], width });
		}
		return out;
	});
}

async function main() {
	const browser = await puppeteer.launch({
		executablePath: chrome, headless: true,
		args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
	});
	try {
		const page = await browser.newPage();
		const index = base + "pages/en/index.html";
		const points = readPoints(path.join(site, "pages/en/index.compute.js"));
		await page.setViewport({ width: 1280, height: 1000 });
		await page.goto(index, { waitUntil: "load" });

		let f = await frameOf(page, "index.compute.js");
		check(f !== null, "the index has the compute chart in a frame");
		if (!f) return;
		check(f.geometry[0] >= 2005, "its default range starts in " + f.geometry[0] + " (2005 or later)");
		const svg = fs.readFileSync(path.join(site, "pages/en/index.compute.svg"), "utf8");
		const frame = svg.match(/<path d="M(\d+) (\d+)V(\d+)H(\d+)"/);
		check(frame && +frame[1] === f.geometry[4] && +frame[2] === f.geometry[5] &&
		      +frame[3] === f.geometry[7] && +frame[4] === f.geometry[6],
		      "the frame's geometry is the picture's plot area (" + (frame ? frame[0] : "none") + ")");

		// the point farthest from any other
		await page.evaluate(() => window.scrollTo(0, document.querySelector(".chart-frame").getBoundingClientRect().top + window.scrollY - 250));
		f = await frameOf(page, "index.compute.js");
		const placed = points.map((p) => ({ p, at: pagePosition(f.box, f.geometry, p) }))
			.filter((q) => q.at);
		let best = null;
		for (const q of placed) {
			let near = Infinity;
			for (const r of placed)
				if (r !== q) near = Math.min(near, Math.hypot(r.at.x - q.at.x, r.at.y - q.at.y));
			if (!best || near > best.near) best = { q, near };
		}
		await page.mouse.move(best.q.at.x + 1, best.q.at.y + 1);
		await shown(page);
		let t = await tip(page);
		check(t && t.name === best.q.p[2], "hovering " + best.q.p[2] + " shows its name (" +
		      (t && t.name) + ")");
		check(t && t.href === new URL(best.q.p[3], index).href, "and links to its page");
		if (t && t.href) {
			const r = await page.evaluate(async (u) => (await fetch(u)).status, t.href);
			check(r === 200, "the link resolves (" + r + ")");
		}
		check(t && t.text.includes(best.q.p[4]) && t.text.includes(best.q.p[5]),
		      "with its date and value as the page writes them (" + (t && t.text) + ")");
		if (shots) {
			fs.mkdirSync(shots, { recursive: true });
			await page.screenshot({ path: path.join(shots, "index-chart-1280.png") });
		}

		// the keyboard: Tab to the chart, the newest point, the one before, Enter
		await page.goto(index, { waitUntil: "load" });
		let reached = false;
		for (let i = 0; i < 200 && !reached; i++) {
			await page.keyboard.press("Tab");
			reached = await page.evaluate(() => document.activeElement &&
				document.activeElement.getAttribute("data-points") === "index.compute.js");
		}
		check(reached, "Tab reaches the compute chart");
		const g = f.geometry, inRange = points.filter((p) => p[0] >= g[0] && p[0] <= g[1] &&
			Math.log10(p[1]) >= g[2] && Math.log10(p[1]) <= g[3]);
		const last = inRange[inRange.length - 1], before = inRange[inRange.length - 2];
		await shown(page);
		t = await tip(page);
		check(t && t.name === last[2], "focused, it shows the newest point, " + last[2] + " (" + (t && t.name) + ")");
		await page.keyboard.press("ArrowLeft");
		t = await tip(page);
		check(t && t.name === before[2], "ArrowLeft: the one before, " + before[2] + " (" + (t && t.name) + ")");
		await Promise.all([page.waitForNavigation({ timeout: 60000 }), page.keyboard.press("Enter")]);
		check(page.url() === new URL(before[3], index).href, "Enter opens its page (" + page.url() + ")");

		// 400 px: every chart's text
		await page.setViewport({ width: 400, height: 900 });
		const model = new URL(before[3], index).href;
		const hwIndex = base + "pages/en/hardware/index.html";
		let card = await page.goto(hwIndex, { waitUntil: "load" }) &&
			await page.evaluate(() => {
				const a = document.querySelector("a[href$='.html']:not([href*='/'])");
				return a ? a.href : null;
			});
		const pages = [index, base + "pages/nl/index.html", hwIndex, model, card].filter(Boolean);
		for (const u of pages) {
			await page.goto(u, { waitUntil: "load" });
			const sizes = await smallestText(page);
			for (const s of sizes)
				check(s.px >= 11, u.replace(base, "") + ": " + s.src + " text " + s.px.toFixed(1) +
				      " px at " + s.width.toFixed(0) + " px wide");
		}
		// 400 px: a label near the right edge stays on the page
		await page.goto(index, { waitUntil: "load" });
		await page.evaluate(() => window.scrollTo(0, document.querySelector(".chart-frame").getBoundingClientRect().top + window.scrollY - 120));
		f = await frameOf(page, "index.compute.js");
		for (const p of [last, best.q.p]) {
			const at = pagePosition(f.box, f.geometry, p);
			await page.mouse.move(at.x, at.y);
			await page.mouse.move(0, 0);
			await page.mouse.move(at.x, at.y);
			await shown(page);
			const box = await page.evaluate(() => {
				const r = document.querySelector(".chart-tip").getBoundingClientRect();
				return { left: r.left, right: r.right, scroll: document.documentElement.scrollWidth };
			});
			check(box.left >= 0 && box.right <= 400 && box.scroll <= 400, "at 400 px, the label of "
			      + "a point at " + at.x.toFixed(0) + " px stays on the page (" + box.left.toFixed(0) + " to " + box.right.toFixed(0) +
			      ", page " + box.scroll + " px wide)");
		}
		if (shots)
			await page.screenshot({ path: path.join(shots, "index-chart-400.png") });

		// the points are the CSV's rows
		for (const k of ["compute", "parameters"]) {
			const rows = readCsv(path.join(site, "pages/en/index." + k + ".csv"));
			const pts = readPoints(path.join(site, "pages/en/index." + k + ".js"));
			const same = rows.length - 1 === pts.length && pts.every((p, i) =>
				rows[i + 1][0] === p[2] && rows[i + 1][5] === p[3] &&
				Math.abs(parseFloat(rows[i + 1][2]) / p[1] - 1) < 1e-5);
			check(same, k + ": " + pts.length + " points, " + (rows.length - 1) + " CSV rows, the same models and values");
		}
	} finally {
		await browser.close();
	}
}

main().then(() => {
	console.log("charts: " + (failed ? failed + " failed" : "all passed"));
	process.exit(failed ? 1 : 0);
}, (e) => {
	console.log("charts: FAIL: " + (e && e.stack || e));
	process.exit(1);
});
