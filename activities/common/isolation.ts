/**
 * The isolation this machine allows candidate code (bubblewrap, else `unshare -n` with checked
 * file access, else checked file access only; LOCKIN_ISOLATION forces one), probed once, and the
 * bubblewrap identity arguments the probe runs with, which every sandboxed run uses
 * (execution/sandbox.ts, execution/slots.ts). Here, below execution/, so that the Spark mode
 * (common/sparkMode.ts: warm slots need bubblewrap) and `lockin doctor` read them without the
 * sandbox itself.
 */
import { spawnSync } from 'child_process';

export type IsolationMode = 'bwrap' | 'unshare-net+checked' | 'checked-only';

/** The unprivileged host uid/gid bubblewrap runs as when lockin runs as root (RLIMIT_NPROC does not hold for root). */
export const SANDBOX_HOST_UID = 65534;

let cachedMode: IsolationMode | undefined;

/** Whether lockin runs as root (the sandbox then drops to unprivileged host uids). */
export const isRoot = (): boolean => (process.getuid?.() ?? 1) === 0;

/**
 * bwrap's namespace and identity arguments. Not root: an unprivileged user namespace (uid 1000
 * inside, lockin's uid outside). Root: bwrap sets the sandbox up as root without a user
 * namespace, and `setpriv` (prepended to the command, see dropPrivileges) switches to
 * SANDBOX_HOST_UID with no capabilities and no_new_privs before anything else runs, so the
 * process limit (RLIMIT_NPROC, which never holds for root) and file permissions apply.
 */
export function namespaceArgs(shareNet = false): string[] {
  const common = ['--die-with-parent', '--new-session', '--hostname', 'lockin'];
  if (isRoot()) return ['--unshare-ipc', '--unshare-pid', ...(shareNet ? [] : ['--unshare-net']), '--unshare-uts', '--unshare-cgroup-try', ...common];
  return ['--unshare-all', ...common, '--cap-drop', 'ALL', '--uid', '1000', '--gid', '1000'];
}

/** The command prefix that drops root inside the sandbox, to `uid` (default SANDBOX_HOST_UID; empty when lockin is not root). */
export function dropPrivileges(uid: number = SANDBOX_HOST_UID): string[] {
  if (!isRoot()) return [];
  const u = String(uid);
  return ['setpriv', `--reuid=${u}`, `--regid=${u}`, '--clear-groups', '--no-new-privs', '--bounding-set=-all', '--inh-caps=-all', '--'];
}

/** The isolation this machine allows (probed once): see the module comment. */
export function isolationMode(): IsolationMode {
  const forced = process.env.LOCKIN_ISOLATION;
  if (forced === 'bwrap' || forced === 'unshare-net+checked' || forced === 'checked-only') return forced;
  if (cachedMode) return cachedMode;
  const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 10000, cwd: '/' }).status === 0;
  if (ok('bwrap', [...namespaceArgs(), '--ro-bind', '/', '/', '--proc', '/proc', '--perms', '1777', '--size', '1048576', '--tmpfs', '/tmp', ...dropPrivileges(), 'true'])) cachedMode = 'bwrap';
  else if (ok('unshare', ['-n', 'sh', '-c', 'ip link set lo up'])) cachedMode = 'unshare-net+checked';
  else cachedMode = 'checked-only';
  return cachedMode;
}
