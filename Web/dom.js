// Small DOM helpers: elements are built with textContent and attributes,
// never from HTML strings, so no data can become markup.

const SVG = "http://www.w3.org/2000/svg";

/// An HTML element with attributes (`text` sets its text) and children.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/// An SVG element with attributes (`text` sets its text) and children.
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name === "text") node.textContent = String(value);
    else node.setAttribute(name, String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/// Replaces the children of `node`.
export function show(node, ...children) {
  node.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
}

/// A number for people: grouped, with at most `digits` decimals.
export function formatNumber(value, digits = 0) {
  return Number(value).toLocaleString("en-US", { maximumFractionDigits: digits });
}

/// "2024-06-01T08:00:00Z" as a short local date and time.
export function formatTime(iso) {
  const date = new Date(iso);
  return date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/// The day of an ISO instant in the page's time zone, as "01 Jun".
export function formatDay(iso, timeZone) {
  return new Date(iso).toLocaleDateString("en-GB", { day: "2-digit", month: "short", timeZone });
}
