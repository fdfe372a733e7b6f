import { Button } from 'react-aria-components';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../api/session';
import { NoOrganization } from '../views/orgs/no-organization';
import { Choice } from './choice';
import { NotificationsLink } from './notifications-link';

function OrganizationSwitcher() {
  const session = useSession();
  const me = session.me;
  if (!me || me.memberships.length === 0) return null;
  return (
    <div className="org-switcher">
      <Choice
        label="Organization"
        name="organization"
        value={me.organization?.id ?? ''}
        any={me.organization ? undefined : 'Choose an organization'}
        onChange={(id) => void session.switchOrganization(id)}
        options={me.memberships.map((m) => ({ value: m.id, label: m.name }))}
      />
    </div>
  );
}

/** The frame of the signed-in app; signed-out visitors are sent to sign in and brought back afterwards. */
export function AppLayout() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  // Signed in but the profile not loaded yet: nothing organization-scoped may ask the API before it says which
  // organization (if any) is active.
  if (session.status === 'loading' || (session.status === 'signed-in' && !session.me)) {
    return <p className="loading">Loading…</p>;
  }
  if (session.status === 'signed-out') {
    const returnTo = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?returnTo=${returnTo}`} replace />;
  }
  return (
    <div className="app">
      <header className="topbar">
        <NavLink to="/app/projects" className="brand">
          Delivery Platform
        </NavLink>
        <nav aria-label="Main">
          <NavLink to="/app/projects">Projects</NavLink>
          <NavLink to="/approvals">Approvals</NavLink>
          {session.me?.organization && <NotificationsLink />}
          <NavLink to="/governance">Governance</NavLink>
          <NavLink to="/clusters">Clusters</NavLink>
          <NavLink to="/validation">Validation</NavLink>
          <NavLink to="/registry">Registry</NavLink>
          <NavLink to="/audit">Audit</NavLink>
          <NavLink to="/settings">Settings</NavLink>
          <NavLink to="/account">Account</NavLink>
        </nav>
        <OrganizationSwitcher />
        <span className="who">{session.me?.user.email}</span>
        <Button className="button" onPress={() => void session.signOut().then(() => navigate('/login'))}>
          Sign out
        </Button>
      </header>
      {session.me && !session.me.organization ? <NoOrganization /> : <Outlet />}
    </div>
  );
}
