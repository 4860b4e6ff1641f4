// The change feed, live: catches up a page at a time, then follows
// `GET changes?stream=ndjson` with fetch and a ReadableStream (an
// EventSource cannot send the Authorization header), resuming from the
// last anchor line after a disconnect.

import { APIFailure } from "./api.js";

export class Feed {
  /// `onChange(line, live)` gets each `{"added":…}` / `{"deleted":…}` /
  /// `{"activitySummary":…}` line; `onStatus(state, detail)` the
  /// connection's state (`catching-up`, `live`, `retrying`, `stopped`).
  constructor(api, onChange, onStatus) {
    this.api = api;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.anchor = null;
    this.controller = null;
    this.stopped = false;
  }

  async start() {
    this.stopped = false;
    let delay = 1000;
    while (!this.stopped) {
      this.controller = new AbortController();
      try {
        if (this.anchor === null) await this.catchUp();
        await this.follow();
        delay = 1000;
      } catch (error) {
        if (this.stopped) break;
        if (error instanceof APIFailure && (error.status === 401 || error.status === 403 || error.status === 404)) {
          this.onStatus("stopped", error);
          return;
        }
        if (error instanceof APIFailure && error.status === 410) this.anchor = null;
        this.onStatus("retrying", error);
      }
      if (this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 30000);
    }
    this.onStatus("stopped");
  }

  stop() {
    this.stopped = true;
    if (this.controller) this.controller.abort();
  }

  /// Reads what the log holds now, a page at a time, up to its end.
  async catchUp() {
    this.onStatus("catching-up");
    let since = null;
    for (;;) {
      const page = await this.api.get("changes", { since, limit: 1000 }, { signal: this.controller.signal });
      for (const sample of page.added) this.onChange({ added: sample }, false);
      for (const deleted of page.deleted) this.onChange({ deleted }, false);
      for (const summary of page.activitySummaries || []) this.onChange({ activitySummary: summary }, false);
      since = page.newAnchor;
      if (!page.hasMore) break;
    }
    this.anchor = since;
  }

  /// Follows the NDJSON stream from the anchor until it ends.
  async follow() {
    const url = this.api.url(`${this.api.base}/changes`, { since: this.anchor, stream: "ndjson" });
    const response = await fetch(url, { headers: this.api.headers(), signal: this.controller.signal });
    if (!response.ok) {
      let body = null;
      try {
        body = await response.json();
      } catch {
        body = null;
      }
      const failure = new APIFailure(response.status, body && body.code, body && body.message);
      if (response.status === 401) this.api.onSignedOut(failure);
      throw failure;
    }
    this.onStatus("live");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    let pending = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf("\n");
      while (end >= 0) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        end = buffered.indexOf("\n");
        if (!line) continue;
        const change = JSON.parse(line);
        if (typeof change.anchor === "string") {
          // The lines up to an anchor line are applied together.
          for (const held of pending) this.onChange(held, true);
          pending = [];
          this.anchor = change.anchor;
        } else {
          pending.push(change);
        }
      }
    }
    throw new Error("the stream ended");
  }
}
