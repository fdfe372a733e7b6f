/**
 * jsdom for the component tier, with Node's own fetch classes: jsdom has no fetch, Request or Response, and the views'
 * API client (openapi-fetch) builds a Request for every call. The tests answer those calls (fake-api.ts); nothing
 * leaves the process.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'TextEncoder', 'TextDecoder', 'ReadableStream']) {
      this.global[name] = globalThis[name];
    }
    // A browser resolves `/api/...` against the page's address; Node's Request takes absolute URLs only.
    const page = this.global.location.href;
    this.global.Request = class PageRequest extends globalThis.Request {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, page) : input, init);
      }
    };
  }
}

module.exports = JsdomWithFetch;
