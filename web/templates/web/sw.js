// Maxi Yatzy Daily's service worker (served from /sw.js by web/pages/app.py).
// It keeps the site's static files for offline use and shows the offline page when a
// page cannot be fetched, or its "server not answering" page when the proxy answers in
// place of the app (a restart: deploy/Caddyfile). Pages, the API and forms always go to the network and are
// never stored: no answer with a player's data is kept, so none can reach another
// account on the same device. Nothing is fetched from another site.
"use strict";
var VERSION = "{{ version }}";
var CACHE = "yatzy-static-" + VERSION;
var STATIC_URLS = {{ static_urls|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
var OFFLINE_URL = {{ offline_url|safe }};
var UNREACHABLE_URL = {{ unreachable_url|safe }};
var FALLBACK_HEADER = {{ fallback_header|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // The offline page without cookies: the visitor's page, whoever is logged in.
    return cache.addAll(STATIC_URLS.concat([OFFLINE_URL, UNREACHABLE_URL].map(function (url) {
      return new Request(url, { credentials: "omit" });
    })));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("yatzy-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  // A page, or a form's post: always from the network; only a failure is replaced.
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (response) {
      if (!response.headers.get(FALLBACK_HEADER)) { return response; }
      return kept(UNREACHABLE_URL).then(function (page) { return page || response; });
    }, function () { return kept(OFFLINE_URL); }));
    return;
  }
  if (request.method === "GET" && url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (stored) {
        return stored || fetch(request).then(function (response) {
          if (response.ok) { cache.put(request, response.clone()); }
          return response;
        });
      });
    }));
  }
});

function kept(url) {
  return caches.open(CACHE).then(function (cache) { return cache.match(url); });
}
