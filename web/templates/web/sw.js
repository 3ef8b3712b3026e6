// Maxi Yatzy Daily's service worker (served from /sw.js by web/pages/app.py).
// It keeps the site's static files for offline use and shows the offline page when a
// page cannot be fetched. Pages, the API and forms always go to the network and are
// never stored: no answer with a player's data is kept, so none can reach another
// account on the same device. Nothing is fetched from another site.
"use strict";
var VERSION = "{{ version }}";
var CACHE = "yatzy-static-" + VERSION;
var STATIC_URLS = {{ static_urls|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
var OFFLINE_URL = {{ offline_url|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    // The offline page without cookies: the visitor's page, whoever is logged in.
    return cache.addAll(STATIC_URLS.concat([new Request(OFFLINE_URL, { credentials: "omit" })]));
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
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE_URL); });
    }));
    return;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) {
        return kept || fetch(request).then(function (response) {
          if (response.ok) { cache.put(request, response.clone()); }
          return response;
        });
      });
    }));
  }
});
