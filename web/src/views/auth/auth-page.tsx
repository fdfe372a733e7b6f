import type { ReactNode } from 'react';

/** The frame of every signed-out page: one heading, one card. */
export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          Delivery Platform
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
