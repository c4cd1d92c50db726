/**
 * System monitoring for admin and staff: measured figures from the server,
 * refreshed when the server pushes `monitoring:changed` (no polling).
 */
import { Panel, StatTile } from '../../components/panel';
import { Badge } from '../../components/ui/badge';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { isStaff, useCurrentUser } from '../../lib/current-user';
import { useMonitoring } from './api';

const HEALTH = { healthy: 'secondary', warning: 'default', critical: 'destructive' } as const;

function uptime(seconds: number) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m ${seconds % 60}s`;
}

/** How long a mail has waited, as a person reads it. */
function age(seconds: number) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return uptime(seconds);
}

function bytes(n: number) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let value = n;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${value.toFixed(value < 10 && i > 0 ? 1 : 0)} ${units[i]}`;
}

export function MonitoringPage() {
  const { data: user } = useCurrentUser();
  const allowed = isStaff(user?.role);
  const query = useMonitoring(allowed);
  if (!allowed)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Access Denied</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">You don't have permission to view the monitoring page.</p>
      </div>
    );
  if (query.isPending) return <Spinner label="Loading monitoring figures" />;
  if (query.isError)
    return (
      <p role="alert" className="text-red-700 dark:text-red-400">
        Monitoring figures are not available right now.
      </p>
    );
  const m = query.data;
  const quotaShare = m.storage.quotaBytes ? Math.round((m.storage.bytes / m.storage.quotaBytes) * 100) : null;
  return (
    <div>
      <PageHeader
        title="System Monitoring"
        description={`Live figures measured on the server. An alert is raised when storage reaches ${Math.round(m.thresholds.storageUsage * 100)}% of its quota (credits), or when a subscription mail has waited more than ${age(m.thresholds.mailBacklogSeconds)} to be sent.`}
        actions={
          <span className="flex items-center gap-2 text-sm">
            Health <Badge variant={HEALTH[m.health]}>{m.health}</Badge>
          </span>
        }
      />
      <section aria-label="Figures" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatTile label="Active users" value={m.activeUsers.toLocaleString('en-US')} detail={`${m.sockets} connection(s) to this server`} />
        <StatTile label="Total posts" value={m.totalPosts.toLocaleString('en-US')} />
        <StatTile
          label="Response time"
          value={`${m.responseTimeMs.p50} ms`}
          detail={`median; p95 ${m.responseTimeMs.p95} ms, last 5 minutes`}
        />
        <StatTile label="Uptime" value={uptime(m.uptimeSeconds)} />
        <StatTile
          label="Database"
          value={m.database.status}
          detail={`${m.database.connections}/${m.database.maxConnections} connections in use`}
        />
        <StatTile
          label="Storage"
          value={bytes(m.storage.bytes)}
          detail={quotaShare === null ? m.storage.status : `${quotaShare}% of quota · ${m.storage.status}`}
        />
        <StatTile
          label="Event log"
          value={m.eventStore.head.toLocaleString('en-US')}
          detail={`projections ${m.eventStore.projections}, ${m.eventStore.lag.toLocaleString('en-US')} events (${m.eventStore.lagSeconds}\u00a0s) behind`}
        />
        <StatTile
          label="Background jobs"
          value={`${m.queues.waiting} waiting`}
          detail={`${m.queues.active} running, ${m.queues.failed} failed, ${m.queues.scheduled} digest schedule(s)`}
        />
        <StatTile
          label="Mail outbox"
          value={`${m.mail.queued.toLocaleString('en-US')} to send`}
          detail={`${m.mail.queued > 0 ? `oldest waiting ${age(m.mail.oldestQueuedSeconds)}; ` : ''}${m.mail.sentLastHour.toLocaleString('en-US')} sent in the last hour, ${m.mail.bounced.toLocaleString('en-US')} bounced`}
        />
      </section>
      {(m.links.usage || m.links.billing) && (
        <p className="mt-4 flex gap-4 text-sm">
          {m.links.usage && (
            <a className="text-brand-600 underline dark:text-amber-accent" href={m.links.usage} target="_blank" rel="noopener noreferrer">
              Hosting usage
            </a>
          )}
          {m.links.billing && (
            <a className="text-brand-600 underline dark:text-amber-accent" href={m.links.billing} target="_blank" rel="noopener noreferrer">
              Billing
            </a>
          )}
        </p>
      )}
      <Panel id="alerts" title="System alerts" className="mt-6">
        {m.alerts.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">All systems normal.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {m.alerts.map((alert) => (
              <li
                key={alert.message}
                className={`rounded-md p-2 text-sm ${alert.level === 'critical' ? 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100'}`}
              >
                {alert.message}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
