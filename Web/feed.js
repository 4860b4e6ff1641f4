// The change feed, live: starts at the store's head (`since=now`), then follows
// `GET changes?stream=ndjson` with fetch and a ReadableStream (an
// EventSource cannot send the Authorization header), resuming from the
// last anchor line after a disconnect.

import { APIFailure } from "./api.js";

export class Feed {
  /// `onChange(line)` gets each `{"added":…}` / `{"deleted":…}` /
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

  /// Takes the store's head as the anchor to follow from (`since=now`: one
  /// short read, however much the store holds), so the feed shows what
  /// happens from the moment the screen opens, never a replay of the log.
  async catchUp() {
    this.onStatus("catching-up");
    const page = await this.api.get("changes", { since: "now" }, { signal: this.controller.signal });
    this.anchor = page.newAnchor;
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
          for (const held of pending) this.onChange(held);
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
