/** `npm run dev`: the server in watch mode and Vite's dev server (which proxies /api to it), together. */
import { spawn } from 'node:child_process';

const children = [spawn('npx', ['tsx', 'watch', 'main/main.ts'], { stdio: 'inherit' }), spawn('npx', ['vite'], { stdio: 'inherit' })];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
