// First step of `npm test` (and of `npm run test:e2e`, `.ci/run`): make sure the e2e scenes can run
// before anything else does, so a fresh machine fails in the first second, not after lint, unit and
// server tests. When Chromium or the CJK font is missing and this user may install packages (root,
// or passwordless sudo, with apt-get), it installs Debian's packages; otherwise it stops with the
// one command to run. The decision is tools/setup/prerequisites.mjs (unit-tested).
import { spawnSync } from 'node:child_process';
import { decideSetup, installCommands, probeMachine } from '../tools/setup/prerequisites.mjs';

const decision = decideSetup(probeMachine());
if (decision.kind === 'stop') {
  console.error(decision.message);
  process.exit(1);
}
if (decision.kind === 'install') {
  console.log(`npm test: installing ${decision.packages.join(' and ')} (Debian packages, needed by the browser tests)`);
  for (const [cmd, ...args] of installCommands(decision)) {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) {
      console.error(`npm test: '${[cmd, ...args].join(' ')}' failed (exit ${r.status ?? r.signal}); install ${decision.packages.join(' ')} by hand, then run npm test again.`);
      process.exit(1);
    }
  }
  const after = decideSetup(probeMachine());
  if (after.kind !== 'ready') {
    console.error(`npm test: ${decision.packages.join(' and ')} installed, yet still missing: ${after.kind === 'stop' ? after.missing.join(', ') : after.packages.join(', ')}`);
    process.exit(1);
  }
}
