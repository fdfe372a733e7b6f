import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './components/layout';

/** Each view is its own chunk: a page loads only its code (the sign-in view's first load stays small). */
function view<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }) };
}

const auth = () => import('./views/auth/login-view');
const mfa = () => import('./views/auth/mfa-view');
const links = () => import('./views/auth/account-links-view');

/**
 * The app's routes. Their first path segments are the UI routes the API answers with index.html
 * (api/web-ui/ui-routes.ts; a unit test keeps the two lists equal).
 */
export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/app/projects" replace /> },
  { path: '/login', ...view(auth, 'LoginView') },
  { path: '/login/mfa', ...view(mfa, 'MfaView') },
  { path: '/register', ...view(links, 'RegisterView') },
  { path: '/forgot-password', ...view(links, 'ForgotPasswordView') },
  { path: '/reset-password', ...view(links, 'ResetPasswordView') },
  { path: '/verify-email', ...view(links, 'VerifyEmailView') },
  { path: '/invitations/:token', ...view(() => import('./views/auth/invitation-view'), 'InvitationView') },
  {
    element: <AppLayout />,
    children: [
      { path: '/app', element: <Navigate to="/app/projects" replace /> },
      { path: '/app/projects', ...view(() => import('./views/projects/projects-view'), 'ProjectsView') },
      { path: '/projects/:slug', ...view(() => import('./views/projects/project-view'), 'ProjectView') },
      { path: '/projects/:slug/releases', ...view(() => import('./views/releases/releases-view'), 'ReleasesView') },
      {
        path: '/projects/:slug/releases/new',
        ...view(() => import('./views/releases/new-release-view'), 'NewReleaseView'),
      },
      { path: '/releases/:id', ...view(() => import('./views/releases/release-view'), 'ReleaseView') },
      { path: '/projects/:slug/compare', ...view(() => import('./views/compare/compare-view'), 'CompareView') },
      { path: '/projects/:slug/bulk-update', ...view(() => import('./views/bulk/bulk-update-view'), 'BulkUpdateView') },
      {
        path: '/projects/:slug/promotions',
        ...view(() => import('./views/promotions/promotions-view'), 'PromotionsView'),
      },
      { path: '/promotions/:id', ...view(() => import('./views/promotions/promotion-view'), 'PromotionView') },
      { path: '/projects/:slug/changes', ...view(() => import('./views/history/changes-view'), 'ChangesView') },
      { path: '/projects/:slug/metrics', ...view(() => import('./views/history/metrics-view'), 'MetricsView') },
      { path: '/projects/:slug/watch', ...view(() => import('./views/watch/watch-view'), 'WatchView') },
      { path: '/projects/:slug/rollouts', ...view(() => import('./views/rollouts/rollouts-view'), 'RolloutsView') },
      { path: '/rollouts/:id', ...view(() => import('./views/rollouts/rollout-view'), 'RolloutView') },
      { path: '/projects/:slug/rollback', ...view(() => import('./views/rollback/rollback-view'), 'RollbackView') },
      { path: '/approvals', ...view(() => import('./views/approvals/approvals-view'), 'ApprovalsView') },
      { path: '/account', ...view(() => import('./views/account/account-view'), 'AccountView') },
      { path: '/audit', ...view(() => import('./views/audit/audit-view'), 'AuditView') },
      {
        path: '/notifications',
        ...view(() => import('./views/notifications/notifications-view'), 'NotificationsView'),
      },
      { path: '/validation', ...view(() => import('./views/validation/validation-view'), 'ValidationView') },
      { path: '/clusters', ...view(() => import('./views/clusters/clusters-view'), 'ClustersView') },
      { path: '/clusters/:id', ...view(() => import('./views/clusters/cluster-view'), 'ClusterView') },
      { path: '/governance', ...view(() => import('./views/governance/governance-view'), 'GovernanceView') },
      { path: '/settings', ...view(() => import('./views/settings/settings-view'), 'SettingsView') },
      { path: '/registry', ...view(() => import('./views/registry/registry-view'), 'RegistryView') },
      { path: '*', element: <NotFound /> },
    ],
  },
];

function NotFound() {
  return (
    <main>
      <h1>Page not found</h1>
    </main>
  );
}
