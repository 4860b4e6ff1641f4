// Charts drawn as SVG by hand. Every mark carries the number it draws in
// `data-value` (and its bucket's start in `data-start`), so a test can
// compare what is drawn with what the API answered.

import { svg, formatDay, formatNumber } from "./dom.js";

/// Charts are drawn in CSS pixels at their container's width (640 when it
/// has none yet), so their text is the same size on every chart.
const DEFAULT_WIDTH = 640;
const HEIGHT = 220;
const LEFT = 56;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 28;

/// A "nice" top for an axis holding `maximum`.
function niceTop(maximum) {
  if (!(maximum > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(maximum));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= maximum) return step * power;
  }
  return 10 * power;
}

/// The frame every chart shares: grid lines with values, day labels.
function frame(buckets, bottom, top, timeZone, unit, width) {
  const chartWidth = Math.max(240, Math.round(width || DEFAULT_WIDTH));
  const plotWidth = chartWidth - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(buckets.length, 1);
  const y = (value) => TOP + plotHeight - ((value - bottom) / (top - bottom || 1)) * plotHeight;
  const root = svg("svg", {
    class: "chart",
    viewBox: `0 0 ${chartWidth} ${HEIGHT}`,
    role: "img",
    "data-unit": unit,
    "data-tz": timeZone,
  });
  for (let index = 0; index <= 4; index += 1) {
    const value = bottom + ((top - bottom) * index) / 4;
    root.append(
      svg("line", { class: "grid", x1: LEFT, x2: chartWidth - RIGHT, y1: y(value), y2: y(value) }),
      svg("text", { x: LEFT - 4, y: y(value) + 3, "text-anchor": "end", text: formatNumber(value, 1) }),
    );
  }
  // Day labels about 64 pixels apart at most.
  const every = Math.ceil(buckets.length / Math.max(2, Math.floor(plotWidth / 64)));
  buckets.forEach((bucket, index) => {
    if (index % every !== 0) return;
    root.append(
      svg("text", {
        x: LEFT + slot * (index + 0.5),
        y: HEIGHT - 8,
        "text-anchor": "middle",
        text: formatDay(bucket.startDate, timeZone),
      }),
    );
  });
  return { root, slot, y };
}

/// Bars of `key` (`sum`…) per bucket, `width` pixels wide; empty buckets
/// draw nothing.
export function barChart(buckets, key, unit, timeZone, width) {
  const values = buckets.map((bucket) => bucket[key]).filter((value) => typeof value === "number");
  const top = niceTop(Math.max(0, ...values));
  const { root, slot, y } = frame(buckets, 0, top, timeZone, unit, width);
  buckets.forEach((bucket, index) => {
    const value = bucket[key];
    if (typeof value !== "number") return;
    const height = Math.max(y(0) - y(value), value > 0 ? 1 : 0);
    root.append(
      svg(
        "rect",
        {
          class: "bar",
          x: LEFT + slot * index + slot * 0.15,
          y: y(0) - height,
          width: slot * 0.7,
          height,
          "data-value": value,
          "data-start": bucket.startDate,
        },
        svg("title", { text: `${formatDay(bucket.startDate, timeZone)}: ${formatNumber(value, 1)} ${unit}` }),
      ),
    );
  });
  return root;
}

/// Per bucket, a line from the minimum to the maximum and a point at the
/// average (discrete types such as heart rate), `width` pixels wide.
export function rangeChart(buckets, unit, timeZone, width) {
  const present = buckets.filter((bucket) => typeof bucket.average === "number");
  const lows = present.map((bucket) => bucket.min ?? bucket.average);
  const highs = present.map((bucket) => bucket.max ?? bucket.average);
  const bottom = present.length ? Math.max(0, Math.floor((Math.min(...lows) - 10) / 10) * 10) : 0;
  const top = present.length ? niceTop(Math.max(...highs) + 5) : 1;
  const { root, slot, y } = frame(buckets, bottom, top, timeZone, unit, width);
  buckets.forEach((bucket, index) => {
    if (typeof bucket.average !== "number") return;
    const x = LEFT + slot * (index + 0.5);
    const low = bucket.min ?? bucket.average;
    const high = bucket.max ?? bucket.average;
    root.append(
      svg("line", { class: "range", x1: x, x2: x, y1: y(low), y2: y(high), "data-min": low, "data-max": high }),
      svg(
        "circle",
        { class: "point", cx: x, cy: y(bucket.average), r: 4, "data-value": bucket.average, "data-start": bucket.startDate },
        svg("title", {
          text: `${formatDay(bucket.startDate, timeZone)}: ${formatNumber(bucket.average, 1)} ${unit} `
            + `(${formatNumber(low, 0)}–${formatNumber(high, 0)})`,
        }),
      ),
    );
  });
  return root;
}

/// A workout's routes (a GeoJSON FeatureCollection of LineStrings) as
/// polylines, longitude scaled by the cosine of the latitude.
export function routeMap(collection) {
  const lines = (collection.features || [])
    .map((feature) => (feature.geometry && feature.geometry.coordinates) || [])
    .filter((coordinates) => coordinates.length > 0);
  const points = lines.flat();
  const size = 360;
  const root = svg("svg", { class: "chart route", viewBox: `0 0 ${size} ${size}`, role: "img" });
  if (!points.length) return root;
  const latitudes = points.map((point) => point[1]);
  const middle = (Math.min(...latitudes) + Math.max(...latitudes)) / 2;
  const scaleX = Math.cos((middle * Math.PI) / 180);
  const xs = points.map((point) => point[0] * scaleX);
  const minX = Math.min(...xs);
  const maxY = Math.max(...latitudes);
  const span = Math.max(Math.max(...xs) - minX, maxY - Math.min(...latitudes), 1e-9);
  const margin = 16;
  const scale = (size - 2 * margin) / span;
  const project = (point) => [
    margin + (point[0] * scaleX - minX) * scale,
    margin + (maxY - point[1]) * scale,
  ];
  for (const coordinates of lines) {
    const projected = coordinates.map(project);
    root.append(
      svg("polyline", {
        points: projected.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
        "data-points": coordinates.length,
      }),
      svg("circle", { class: "start", cx: projected[0][0], cy: projected[0][1], r: 5 }),
      svg("circle", { class: "end", cx: projected.at(-1)[0], cy: projected.at(-1)[1], r: 5 }),
    );
  }
  return root;
}
