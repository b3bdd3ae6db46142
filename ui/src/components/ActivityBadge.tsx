// A session's badge in the sidebar: a spinner while it runs, the count of the approvals that
// wait for the person (amber) otherwise.
import type { SessionActivity } from "../protocol/SessionActivity";

export function ActivityBadge({ activity }: { activity: SessionActivity | undefined }) {
  if (!activity) return null;
  if (activity.waiting > 0) {
    const tip = activity.waiting === 1 ? "1 approval waits for you" : `${activity.waiting} approvals wait for you`;
    return (
      <span className="session-waiting look-needs-you" data-testid="session-waiting" title={tip} aria-label={tip}>
        {activity.waiting}
      </span>
    );
  }
  if (activity.running) {
    return <span className="spinner" data-testid="session-running" role="img" aria-label="Working" title="Working" />;
  }
  return null;
}
