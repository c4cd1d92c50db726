/**
 * docker-compose.yml as the README's container section uses it: `docker-compose config` (Debian's docker-compose,
 * or the Docker CLI's compose plugin) accepts the file with each profile, and what it resolves to is what an
 * operator expects: every service restarts unless stopped, the passwordless UIs (KurrentDB, Mailpit) listen on this
 * machine only, images are pinned to releases, and each app creates its own database (docker/create-database.ts)
 * instead of relying on an init script that runs only on a new volume. Skipped, saying why, where no compose is
 * installed (CI installs Debian's docker-compose: .ci/run).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const env = {
  ...process.env,
  SESSION_SECRET: 'compose-test-secret-compose-test-secret',
  EMAIL_CLAIM_SECRET: 'compose-test-claims-compose-test-claims',
};

/** The compose command here: Debian's docker-compose, or `docker compose`; null when there is neither. */
function composeCommand(): string[] | null {
  for (const command of [['docker-compose'], ['docker', 'compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return null;
}
const compose = composeCommand();

function config(profiles: string[], environment: NodeJS.ProcessEnv = env) {
  const [command, ...args] = compose!;
  return spawnSync(command!, [...args, ...profiles.flatMap((profile) => ['--profile', profile]), 'config'], {
    cwd: root,
    env: environment,
    encoding: 'utf8',
  });
}

interface Service {
  image?: string;
  build?: unknown;
  restart?: string;
  command?: string[] | string;
  ports?: (string | { published?: number | string; target?: number; host_ip?: string })[];
  volumes?: (string | { source?: string; target?: string })[];
  environment?: Record<string, string>;
}

/** The host address and port of each published port, in either of the forms compose prints. */
function published(service: Service) {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'object') return { hostIp: port.host_ip ?? '0.0.0.0', hostPort: Number(port.published), target: port.target };
    const parts = port.replace(/\/(tcp|udp)$/u, '').split(':');
    const target = Number(parts.pop());
    const hostPort = Number(parts.pop() ?? target);
    return { hostIp: parts.pop() ?? '0.0.0.0', hostPort, target };
  });
}

describe.skipIf(!compose)(
  `docker-compose.yml${compose ? '' : ' (skipped: neither docker-compose nor the docker compose plugin is installed; Debian: apt-get install docker-compose)'}`,
  () => {
    const profiles = [[], ['scale-out'], ['scale-out-test'], ['scale-out', 'scale-out-test']];

    it.each(profiles.map((list) => [list.join(' + ') || 'default', list] as const))(
      'is accepted by compose with the %s profile',
      (_name, list) => {
        const result = config(list);
        expect(result.stderr).not.toMatch(/error|invalid|unsupported/iu);
        expect(result.status, result.stderr).toBe(0);
        expect(Object.keys((parse(result.stdout) as { services: Record<string, Service> }).services)).toEqual(
          expect.arrayContaining(['postgres', 'redis', 'mailpit', 'app']),
        );
      },
    );

    it('refuses to start the apps without SESSION_SECRET, saying so', () => {
      const { SESSION_SECRET: _secret, ...withoutSecret } = env;
      const result = config([], withoutSecret);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('set SESSION_SECRET');
    });

    const services = () =>
      (
        parse(
          execFileSync(compose![0]!, [...compose!.slice(1), '--profile', 'scale-out', '--profile', 'scale-out-test', 'config'], {
            cwd: root,
            env,
            encoding: 'utf8',
          }),
        ) as { services: Record<string, Service> }
      ).services;

    it('restarts every service unless stopped', () => {
      for (const [name, service] of Object.entries(services())) expect(service.restart, name).toBe('unless-stopped');
    });

    it('publishes only the sites on every interface; the KurrentDB and Mailpit UIs and the test servers on 127.0.0.1', () => {
      const all = services();
      for (const [name, service] of Object.entries(all)) {
        for (const port of published(service)) {
          if (!name.startsWith('app')) expect(port.hostIp, `${name} publishes ${port.hostPort} on ${port.hostIp}`).toBe('127.0.0.1');
        }
      }
      expect(published(all.kurrentdb!)).toEqual([{ hostIp: '127.0.0.1', hostPort: 2113, target: 2113 }]);
      expect(published(all.mailpit!)).toEqual([{ hostIp: '127.0.0.1', hostPort: 8025, target: 8025 }]);
    });

    it('pins every image to a release, not to a line that moves (redis:7.4, mongo:7.0)', () => {
      for (const [name, service] of Object.entries(services())) {
        if (service.build) continue;
        const [repository, tag] = service.image!.split(':');
        // PostgreSQL's releases are major.minor (15.10); everyone else's here are major.minor.patch or MinIO's dated ones.
        const release = repository === 'postgres' ? /^\d+\.\d+$/u : /^(v?\d+\.\d+\.\d+|RELEASE\.[0-9TZ-]+)$/u;
        expect(tag, `${name}: ${service.image}`).toMatch(release);
      }
    });

    it('has each app create its own database before the site starts, with no init script', () => {
      const all = services();
      for (const [name, service] of Object.entries(all)) {
        const volumes = (service.volumes ?? []).map((volume) =>
          typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`,
        );
        expect(volumes.join(' '), name).not.toContain('docker-entrypoint-initdb.d');
      }
      const apps = Object.entries(all).filter(([, service]) => service.build);
      expect(apps.map(([name]) => name).sort()).toEqual(['app', 'app-scale-out']);
      for (const [name, service] of apps) {
        const command = [service.command ?? []].flat().join(' ');
        expect(command, name).toMatch(/node --import tsx docker\/create-database\.ts && exec node --import tsx main\/main\.ts/u);
      }
      expect(existsSync(resolve(root, 'docker/create-database.ts'))).toBe(true);
      // Their own databases and Redis prefixes: nothing crosses between the two sites.
      expect(all.app!.environment!.DATABASE_URL).not.toBe(all['app-scale-out']!.environment!.DATABASE_URL);
      expect(all.app!.environment!.REDIS_PREFIX ?? 'bhc').not.toBe(all['app-scale-out']!.environment!.REDIS_PREFIX);
    });
  },
);
