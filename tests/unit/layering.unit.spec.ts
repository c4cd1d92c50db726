/**
 * The layering rule of .dependency-cruiser.cjs (run by `npm run lint`) refuses imports that go up or sideways,
 * shown on a small tree of its own so the repository's layout stays untouched.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let tree: string;

async function write(path: string, text: string) {
  await mkdir(dirname(join(tree, path)), { recursive: true });
  await writeFile(join(tree, path), text);
}

async function cruise(...folders: string[]): Promise<{ ok: boolean; output: string }> {
  const bin = join(root, 'node_modules/.bin/depcruise');
  try {
    const { stdout } = await promisify(execFile)(bin, ['--config', join(root, '.dependency-cruiser.cjs'), ...folders], { cwd: tree });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

beforeAll(async () => {
  tree = await mkdtemp(join(tmpdir(), 'bhc-layers-'));
  await write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
  await write('shared/rule.ts', 'export const rule = 1;\n');
  await write('platform/port.ts', "import { rule } from '../shared/rule';\nexport const port = rule;\n");
  await write('server/route.ts', "import { port } from '../platform/port';\nexport const route = port;\n");
  await write('main/main.ts', "import { route } from '../server/route';\nexport const main = route;\n");
});

afterAll(() => rm(tree, { recursive: true, force: true }));

// Each check starts dependency-cruiser in a process of its own: 1.6–3.5 s apiece under CI's load, near the unit default of 5 s.
describe('layering', { timeout: 30_000 }, () => {
  it('accepts imports that go down the layers', async () => {
    const result = await cruise('shared', 'platform', 'server', 'main');
    expect(result.output).toContain('no dependency violations');
    expect(result.ok).toBe(true);
  });

  it('refuses an upward import from the platform into a role', async () => {
    await write('platform/upward.ts', "import { route } from '../server/route';\nexport const upward = route;\n");
    const result = await cruise('shared', 'platform', 'server');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('platform-imports-only-platform-shared: platform/upward.ts → server/route.ts');
    await rm(join(tree, 'platform/upward.ts'));
  });

  it('refuses a role importing the composition root, and shared importing the platform', async () => {
    await write('server/root.ts', "import { main } from '../main/main';\nexport const root = main;\n");
    await write('shared/low.ts', "import { port } from '../platform/port';\nexport const low = port;\n");
    const result = await cruise('shared', 'platform', 'server', 'main');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('server/root.ts → main/main.ts');
    expect(result.output).toContain('shared-imports-only-shared: shared/low.ts → platform/port.ts');
    await rm(join(tree, 'server/root.ts'));
    await rm(join(tree, 'shared/low.ts'));
  });
});
