/**
 * `npm run dev`: the API (restarting on change) and Vite with hot reload, on one origin
 * (http://localhost:PORT, default 3000; the API listens on API_PORT, default PORT + 1, behind Vite's proxy).
 */
import { spawn } from 'node:child_process';

const webPort = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? webPort + 1);
const env = {
  ...process.env,
  API_PORT: String(apiPort),
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${webPort}`,
};

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...env, PORT: String(apiPort), NODE_ENV: 'development' },
  }),
  spawn('npx', ['vite', '--port', String(webPort)], { stdio: 'inherit', env }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
for (const child of children)
  child.once('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
