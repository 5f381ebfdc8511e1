/* @cachely/sdk 0.12.0 (sdk/mod.ts) */

// sdk/rewrite.ts
var ASSET_PREFIX = "/~assets/";
var IDENTITY = (text) => text;
function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
var SL = "\\\\?/";
function compileRewriter(rules) {
  var _a;
  const tenant = rules.tenantOrigin.replace(/\/+$/, "");
  const alts = [];
  const img = rules.imageHost;
  if (img && img.cloudName) {
    alts.push(
      `${escapeRe(img.host.toLowerCase())}${SL}${escapeRe(img.cloudName)}${SL}(image|video)${SL}upload(?=\\\\?/)`
    );
    if (img.privateHost) {
      alts.push(
        `${escapeRe(img.privateHost.toLowerCase())}${SL}(image|video)${SL}upload(?=\\\\?/)`
      );
    } else {
      alts.push(`(?!)()`);
    }
  } else {
    alts.push(`(?!)()`, `(?!)()`);
  }
  const hosts = ((_a = rules.assetHosts) != null ? _a : []).filter((h) => h.length > 0);
  if (hosts.length > 0) {
    alts.push(
      `(${hosts.map((h) => escapeRe(h.toLowerCase())).join("|")})(?=[/\\\\?#"'\\s)<>,;]|$)`
    );
  }
  if (!(img == null ? void 0 : img.cloudName) && hosts.length === 0) return IDENTITY;
  const re = new RegExp(
    `(?<![\\w.\\-/:\\\\@%])(https?:)?(${SL}${SL})(?:${alts.join("|")})`,
    "gi"
  );
  const cloudSeg = (img == null ? void 0 : img.keepCloudName) ? `/${img.cloudName}` : "";
  return (text) => {
    if (text.length === 0) return text;
    re.lastIndex = 0;
    return text.replace(
      re,
      (_m, _scheme, slashes, viaPublic, viaPrivate, host) => {
        const escaped = slashes.includes("\\");
        let out;
        if (viaPublic || viaPrivate) {
          out = `${tenant}${cloudSeg}/${(viaPublic || viaPrivate).toLowerCase()}/upload`;
        } else {
          out = `${tenant}${ASSET_PREFIX}${host.toLowerCase()}`;
        }
        return escaped ? out.replaceAll("/", "\\/") : out;
      }
    );
  };
}
function rewriteUrls(text, rules) {
  return compileRewriter(rules)(text);
}

// sdk/url.ts
var DEFAULT_ASSET_ORIGIN = "https://res.cloudinary.com";
function privateHost(host, cloudName) {
  return host.startsWith("res.") ? `${cloudName}-res.${host.slice(4)}` : null;
}
function hostOf(origin) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}
function createUrlRewriter(opts) {
  var _a;
  const host = hostOf((_a = opts.assetOrigin) != null ? _a : DEFAULT_ASSET_ORIGIN);
  return compileRewriter({
    tenantOrigin: opts.base,
    imageHost: {
      host,
      cloudName: opts.cloudName,
      privateHost: privateHost(host, opts.cloudName),
      keepCloudName: true
    }
  });
}
function rewriteUrl(url, opts) {
  return createUrlRewriter(opts)(url);
}

// sdk/transformer.ts
function hostOf2(origin) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}
function createResponseTransformer(options) {
  var _a;
  let rewrite = null;
  let base = "";
  let setupError = null;
  try {
    base = options.base.replace(/\/+$/, "");
    if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(base)) {
      throw new TypeError(`Invalid base: ${options.base}`);
    }
    const host = hostOf2((_a = options.assetOrigin) != null ? _a : DEFAULT_ASSET_ORIGIN);
    rewrite = compileRewriter({
      tenantOrigin: base,
      assetHosts: options.assetHosts,
      imageHost: options.cloudName ? {
        host,
        cloudName: options.cloudName,
        privateHost: host.startsWith("res.") ? `${options.cloudName}-res.${host.slice(4)}` : null
      } : void 0
    });
  } catch (e) {
    setupError = e;
  }
  return (data) => {
    var _a2;
    try {
      if (setupError) throw setupError;
      let json = JSON.stringify(data);
      if (json === void 0) return data;
      json = rewrite(json);
      for (const t of (_a2 = options.transformers) != null ? _a2 : []) {
        const out = t(json, base);
        if (typeof out !== "string") throw new TypeError("A transformer must return a string");
        json = out;
      }
      let result = JSON.parse(json);
      if (options.postTransform) {
        const post = options.postTransform(result);
        if (post !== void 0) result = post;
      }
      return result;
    } catch (error) {
      if (options.onError) {
        const replaced = options.onError(error, data);
        return replaced === void 0 ? data : replaced;
      }
      console.warn("[cachely] response transform failed; returning the original data", error);
      return data;
    }
  };
}
function transformResponse(data, options) {
  return createResponseTransformer(options)(data);
}

// sdk/tracker_storage.ts
var STORAGE_KEY = "cachely.experiment";
var VISITOR_KEY = "cachely.visitor";
var SESSION_KEY = "cachely.session";
function defaultStorage(name) {
  try {
    const s = globalThis[name];
    return s != null ? s : null;
  } catch {
    return null;
  }
}
function safeGet(s, key) {
  if (!s) return null;
  try {
    return s.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(s, key, value) {
  if (!s) return;
  try {
    s.setItem(key, value);
  } catch {
  }
}
function randomId() {
  try {
    const c = globalThis.crypto;
    if (c == null ? void 0 : c.randomUUID) return c.randomUUID();
    if (c == null ? void 0 : c.getRandomValues) {
      return Array.from(
        c.getRandomValues(new Uint8Array(16)),
        (b) => b.toString(16).padStart(2, "0")
      ).join("");
    }
  } catch {
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
function positiveInt(v) {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
function toAssignment(v) {
  if (!v || typeof v !== "object") return null;
  const o = v;
  const experimentId = positiveInt(o.experimentId);
  const variantId = positiveInt(o.variantId);
  if (experimentId === null || variantId === null) return null;
  if (typeof o.variantKey !== "string" || o.variantKey === "") return null;
  return {
    experimentId,
    variantId,
    variantKey: o.variantKey,
    profile: typeof o.profile === "string" ? o.profile : null,
    capturedAt: typeof o.capturedAt === "number" ? o.capturedAt : 0
  };
}
function parseStored(raw) {
  const empty = { state: { assignmentsById: {}, latestExperimentId: null }, legacy: false };
  if (!raw) return empty;
  let v;
  try {
    v = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (!v || typeof v !== "object") return empty;
  const o = v;
  if (o.assignmentsById && typeof o.assignmentsById === "object") {
    const assignmentsById = {};
    for (const a of Object.values(o.assignmentsById)) {
      const parsed = toAssignment(a);
      if (parsed) assignmentsById[String(parsed.experimentId)] = parsed;
    }
    const latest = positiveInt(o.latestExperimentId);
    return {
      state: {
        assignmentsById,
        latestExperimentId: latest !== null && assignmentsById[String(latest)] ? latest : null
      },
      legacy: false
    };
  }
  const single = toAssignment(o);
  if (!single) return empty;
  return {
    state: {
      assignmentsById: { [String(single.experimentId)]: single },
      latestExperimentId: single.experimentId
    },
    legacy: true
  };
}

// sdk/tracker_declarative.ts
var TRACK_ATTR = "data-cachely-track";
var EXPERIMENT_ATTR = "data-cachely-experiment-id";
var META_ATTR_PREFIX = "data-cachely-meta-";
var LISTENER = /* @__PURE__ */ Symbol.for("cachely.tracker.listener");
function enableDeclarativeTracking(tracker, root) {
  const target = root != null ? root : globalThis.document;
  if (!target) return () => {
  };
  const host = target;
  const existing = host[LISTENER];
  if (existing) {
    existing.tracker = tracker;
    return () => disable(host);
  }
  const reg = { tracker, handler: (e) => onClick(reg.tracker, e) };
  host[LISTENER] = reg;
  target.addEventListener("click", reg.handler, { capture: true, passive: true });
  return () => disable(host);
}
function disable(host) {
  const reg = host[LISTENER];
  if (!reg) return;
  host.removeEventListener("click", reg.handler, { capture: true });
  delete host[LISTENER];
}
function onClick(tracker, e) {
  var _a, _b;
  try {
    const start = e.target;
    const el = (_a = start == null ? void 0 : start.closest) == null ? void 0 : _a.call(start, `[${TRACK_ATTR}]`);
    if (!el) return;
    const name = (_b = el.getAttribute(TRACK_ATTR)) != null ? _b : "";
    const meta = {};
    for (const attr of Array.from(el.attributes)) {
      if (attr.name.startsWith(META_ATTR_PREFIX) && attr.name.length > META_ATTR_PREFIX.length) {
        meta[attr.name.slice(META_ATTR_PREFIX.length)] = attr.value;
      }
    }
    const experimentId = el.getAttribute(EXPERIMENT_ATTR);
    void tracker.track(
      name,
      Object.keys(meta).length ? meta : null,
      experimentId === null ? void 0 : { experimentId }
    );
  } catch {
  }
}

// sdk/tracker.ts
var EXPERIMENT_HEADERS = {
  experimentId: "x-cachely-experiment-id",
  variantId: "x-cachely-variant-id",
  variantKey: "x-cachely-variant-key",
  profile: "x-cachely-experiment-profile"
};
var EVENT_NAME_RE = /^[a-zA-Z0-9_.:-]{1,80}$/;
var MAX_URL_CHARS = 2048;
function createTracker(options) {
  var _a;
  const session = options.sessionStorage === void 0 ? defaultStorage("sessionStorage") : options.sessionStorage;
  const local = options.localStorage === void 0 ? defaultStorage("localStorage") : options.localStorage;
  const doFetch = (_a = options.fetch) != null ? _a : ((input, init) => globalThis.fetch(input, init));
  const loaded = parseStored(safeGet(session, STORAGE_KEY));
  const state = loaded.state;
  const persist = () => safeSet(session, STORAGE_KEY, JSON.stringify(state));
  if (loaded.legacy) persist();
  let visitorId = safeGet(local, VISITOR_KEY);
  if (!visitorId) {
    visitorId = randomId();
    safeSet(local, VISITOR_KEY, visitorId);
  }
  let sessionId = safeGet(session, SESSION_KEY);
  if (!sessionId) {
    sessionId = randomId();
    safeSet(session, SESSION_KEY, sessionId);
  }
  const all = () => Object.values(state.assignmentsById);
  function captureFromResponse(response) {
    try {
      const h = response == null ? void 0 : response.headers;
      if (!h) return null;
      const a = toAssignment({
        experimentId: h.get(EXPERIMENT_HEADERS.experimentId),
        variantId: h.get(EXPERIMENT_HEADERS.variantId),
        variantKey: h.get(EXPERIMENT_HEADERS.variantKey),
        profile: h.get(EXPERIMENT_HEADERS.profile),
        capturedAt: Date.now()
      });
      if (!a) return null;
      state.assignmentsById[String(a.experimentId)] = a;
      state.latestExperimentId = a.experimentId;
      persist();
      return a;
    } catch {
      return null;
    }
  }
  function resolve(options2) {
    const wanted = options2 == null ? void 0 : options2.experimentId;
    if (wanted !== void 0 && wanted !== null) {
      const id = positiveInt(wanted);
      if (id === null) return { error: "invalid_experiment_id" };
      const list2 = all();
      if (list2.length === 0) return { error: "no_assignment" };
      const a = state.assignmentsById[String(id)];
      return a ? { a } : { error: "assignment_not_found" };
    }
    const list = all();
    if (list.length === 0) return { error: "no_assignment" };
    if (list.length > 1) return { error: "ambiguous_experiment" };
    return { a: list[0] };
  }
  async function post(body) {
    const init = {
      method: "POST",
      // text/plain keeps this a CORS simple request (no preflight); the server parses JSON.
      headers: { "content-type": "text/plain;charset=UTF-8" },
      body,
      credentials: "omit",
      mode: "cors"
    };
    let res;
    try {
      res = await doFetch(options.endpoint, { ...init, keepalive: true });
    } catch {
      try {
        res = await doFetch(options.endpoint, init);
      } catch {
        return { ok: false, error: "network_error" };
      }
    }
    let parsed = null;
    try {
      parsed = await res.json();
    } catch {
    }
    if (res.ok && (parsed == null ? void 0 : parsed.ok) === true && typeof parsed.id === "number") {
      return { ok: true, id: parsed.id };
    }
    return { ok: false, error: "http_error", status: res.status };
  }
  async function track(name, meta, opts) {
    var _a2, _b;
    try {
      const r = resolve(opts);
      if ("error" in r) return { ok: false, error: r.error };
      if (typeof name !== "string" || !EVENT_NAME_RE.test(name)) {
        return { ok: false, error: "invalid_event_name" };
      }
      const url = readSafely((_a2 = options.pageUrl) != null ? _a2 : (() => {
        var _a3;
        return (_a3 = globalThis.location) == null ? void 0 : _a3.href;
      }));
      const referrer = readSafely(
        (_b = options.referrer) != null ? _b : (() => {
          var _a3;
          return (_a3 = globalThis.document) == null ? void 0 : _a3.referrer;
        })
      );
      const body = JSON.stringify({
        tenantSlug: options.tenantSlug,
        experimentId: r.a.experimentId,
        variantId: r.a.variantId,
        variantKey: r.a.variantKey,
        eventName: name,
        visitorId,
        sessionId,
        ...url ? { url: url.slice(0, MAX_URL_CHARS) } : {},
        ...referrer ? { referrer: referrer.slice(0, MAX_URL_CHARS) } : {},
        ...meta && typeof meta === "object" && !Array.isArray(meta) ? { metadata: meta } : {}
      });
      return await post(body);
    } catch {
      return { ok: false, error: "network_error" };
    }
  }
  const tracker = {
    captureFromResponse,
    wrapFetch(f) {
      return async (input, init) => {
        const res = await f(input, init);
        captureFromResponse(res);
        return res;
      };
    },
    getAssignment(experimentId) {
      var _a2, _b;
      if (experimentId === void 0) {
        return state.latestExperimentId === null ? null : (_a2 = state.assignmentsById[String(state.latestExperimentId)]) != null ? _a2 : null;
      }
      const id = positiveInt(experimentId);
      return id === null ? null : (_b = state.assignmentsById[String(id)]) != null ? _b : null;
    },
    getAllAssignments: () => all().map((a) => ({ ...a })),
    getVisitorId: () => visitorId,
    getSessionId: () => sessionId,
    track,
    enableDeclarativeTracking: (root) => enableDeclarativeTracking(tracker, root)
  };
  return tracker;
}
function readSafely(f) {
  try {
    return f();
  } catch {
    return void 0;
  }
}

// sdk/mod.ts
var VERSION = "0.12.0";
export {
  ASSET_PREFIX,
  DEFAULT_ASSET_ORIGIN,
  EXPERIMENT_ATTR,
  EXPERIMENT_HEADERS,
  META_ATTR_PREFIX,
  SESSION_KEY,
  STORAGE_KEY,
  TRACK_ATTR,
  VERSION,
  VISITOR_KEY,
  compileRewriter,
  createResponseTransformer,
  createTracker,
  createUrlRewriter,
  parseStored,
  rewriteUrl,
  rewriteUrls,
  transformResponse
};
