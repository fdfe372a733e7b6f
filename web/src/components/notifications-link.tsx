import { NavLink } from 'react-router';
import { useUnreadCount } from '../api/org-queries';

/** The top bar's link to the notifications, with the unread count (polled, so it stays live). */
export function NotificationsLink() {
  const unread = useUnreadCount().data?.unread ?? 0;
  return (
    <NavLink to="/notifications">
      Notifications
      {unread > 0 && (
        <span className="count">
          {unread}
          <span className="visually-hidden"> unread</span>
        </span>
      )}
    </NavLink>
  );
}
