import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SessionProvider } from '../src/api/session';
import type { FakeApi } from './fake-api';

let client: QueryClient | null = null;

afterEach(() => {
  client?.clear();
  client = null;
});

/**
 * Renders a view as the app does (query cache, session, router at `at`, the view under its route pattern `route`),
 * with `api` answering every call the view's client makes.
 */
export function renderView(view: ReactNode, { api, route, at }: { api: FakeApi; route: string; at: string }) {
  globalThis.fetch = api.fetch;
  client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SessionProvider>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path={route} element={view} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>,
  );
}
