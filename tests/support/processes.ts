/**
 * Child processes for fault tests: roles of the site (`main/main.ts` with ROLES, or a script) and a private
 * redis-server, each one killable by signal. `stopAll` ends the roles before the Redis they use.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export function childProcesses() {
  const roles = new Set<ChildProcess>();
  const redisServers = new Set<ChildProcess>();
  const logs: string[] = [];

  function hear(child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  }

  return {
    /** What the children wrote, for a failure message. */
    logs,
    /** `node --import tsx <script>`, so that a signal reaches the role itself, not a wrapper; the environment is added to this process's. */
    start(script: string, env: Record<string, string>): ChildProcess {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      hear(child);
      roles.add(child);
      child.once('exit', () => roles.delete(child));
      return child;
    },
    /** A private Redis, never the shared one: `--save "" --appendonly no`, so a restart on the same port starts it empty. */
    redis(port: number): Promise<ChildProcess> {
      const redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      redisServers.add(redis);
      redis.once('exit', () => redisServers.delete(redis));
      return new Promise((resolve, reject) => {
        redis.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Ready to accept connections')) resolve(redis);
        });
        redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
      });
    },
    /** Waits until `condition` holds, polling every 50 ms; on timeout, fails with the children's last output. */
    async until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${logs.join('').slice(-4000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stopAll(signal: NodeJS.Signals = 'SIGKILL') {
      for (const child of [...roles]) await stop(child, signal);
      for (const redis of [...redisServers]) await stop(redis, 'SIGKILL');
      logs.length = 0;
    },
  };
}
