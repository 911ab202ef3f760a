// Turns AGENTBOARD_TEST_* variables into agentboard's test hooks (see install.mjs for what each does).
export function hooksFromEnv(env) {
  const hooks = {};
  const pinned = env.AGENTBOARD_TEST_NOW;
  if (pinned) {
    const t = Date.parse(pinned);
    hooks.now = () => t;
    hooks.boardNow = () => t;
  }
  const skew = Number(env.AGENTBOARD_TEST_SKEW_MS ?? 0);
  if (skew) hooks.now = () => Date.now() + skew;
  if (env.AGENTBOARD_TEST_STALE_MS) hooks.staleMs = Number(env.AGENTBOARD_TEST_STALE_MS);
  if (env.AGENTBOARD_TEST_LINGER_MS) hooks.lingerMs = Number(env.AGENTBOARD_TEST_LINGER_MS);
  if (env.AGENTBOARD_TEST_GATHER_MS) hooks.gatherMs = Number(env.AGENTBOARD_TEST_GATHER_MS);
  if (env.AGENTBOARD_TEST_TENURE_MS) hooks.tenureMs = Number(env.AGENTBOARD_TEST_TENURE_MS);
  if (env.AGENTBOARD_TEST_NETWORK_TIMEOUT_MS) hooks.networkTimeoutMs = Number(env.AGENTBOARD_TEST_NETWORK_TIMEOUT_MS);
  if (env.AGENTBOARD_TEST_RATE_LIMIT_WAIT_MS) hooks.rateLimitWaitMs = Number(env.AGENTBOARD_TEST_RATE_LIMIT_WAIT_MS);
  if (env.AGENTBOARD_TEST_UNWATCHED_CALLS === '1') hooks.unwatchedCalls = true;
  const fault = env.AGENTBOARD_TEST_FAULT;
  // Several faults, separated by spaces ("stop:commit:held commit:staged@2"): each as if it were alone.
  if (fault?.includes(' ')) {
    const each = fault.split(' ').map((one) => hooksFromEnv({ AGENTBOARD_TEST_FAULT: one }).fault);
    hooks.fault = (at, path) => {
      for (const f of each) f(at, path);
    };
  } else if (fault?.startsWith('stop:')) {
    const point = fault.slice('stop:'.length);
    let stopped = false;
    hooks.fault = (at) => {
      if (at === point && !stopped) {
        stopped = true;
        process.kill(process.pid, 'SIGSTOP');
      }
    };
  } else if (fault?.startsWith('throw:')) {
    const point = fault.slice('throw:'.length);
    hooks.fault = (at) => {
      if (at === point) throw new Error(`injected failure at ${at}`);
    };
  } else if (fault?.startsWith('errno:')) {
    const [, code, spec] = fault.split(':');
    const [part, nth] = spec.split('@');
    let seen = 0;
    hooks.fault = (point, path) => {
      if (point === 'write' && path?.includes(part) && ++seen >= Number(nth ?? 1)) throw Object.assign(new Error(`injected ${code}`), { code });
    };
  } else if (fault) {
    const [point, nth] = fault.split('@');
    let seen = 0;
    hooks.fault = (at) => {
      const hit = at === point || (point.endsWith('*') && at.startsWith(point.slice(0, -1)));
      if (hit && ++seen >= Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
    };
  }
  return hooks;
}
