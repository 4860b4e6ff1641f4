// Calls the node's API with the user's token, and nothing else: the page
// can show only what the token may read.

const TOKEN_KEY = "anchorage.token";
const STORE_KEY = "anchorage.store";

/// An answer that is not 2xx: its status and the API's error code.
export class APIFailure extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

export class API {
  constructor() {
    this.token = sessionStorage.getItem(TOKEN_KEY);
    this.store = sessionStorage.getItem(STORE_KEY);
    this.multiStore = false;
    this.onSignedOut = () => {};
  }

  /// The prefix of a store's routes: `/v1`, or `/v1/stores/{store}`.
  get base() {
    return this.multiStore ? `/v1/stores/${encodeURIComponent(this.store || "")}` : "/v1";
  }

  /// Keeps the token (and store) for this tab only.
  remember(token, store) {
    this.token = token;
    this.store = store || null;
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    if (store) sessionStorage.setItem(STORE_KEY, store);
    else sessionStorage.removeItem(STORE_KEY);
  }

  headers(extra = {}) {
    const headers = { ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  url(path, parameters = {}) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters)) {
      if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
    }
    const text = query.toString();
    return text ? `${path}?${text}` : path;
  }

  /// GETs a store route (`path` relative to the store) as JSON.
  async get(path, parameters = {}, options = {}) {
    return this.request("GET", `${this.base}/${path}`, parameters, undefined, options);
  }

  async request(method, path, parameters = {}, body = undefined, options = {}) {
    const init = { method, headers: this.headers(body ? { "Content-Type": "application/json" } : {}) };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (options.signal) init.signal = options.signal;
    const response = await fetch(this.url(path, parameters), init);
    if (response.status === 204) return null;
    let payload = null;
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) payload = await response.json();
    else await response.text();
    if (!response.ok) {
      const failure = new APIFailure(response.status, payload && payload.code, payload && payload.message);
      if (response.status === 401 && options.signsOut !== false) this.onSignedOut(failure);
      throw failure;
    }
    return payload;
  }

  /// Exchanges a one-time sign-in code for a session token.
  async exchange(code) {
    const answer = await this.request("POST", "/v1/sign-in", {}, { code }, { signsOut: false });
    return answer.token;
  }
}
