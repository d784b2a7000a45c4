import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * An exclusive lock on an embedded (PGlite) database directory. PGlite is one process's database: a
 * second process opening the same directory would not see the first one's writes, and both would
 * diverge silently. The lock is a file beside the directory (`<dir>.lock`), created exclusively, holding
 * the owner's pid, host, start time and, once it listens, the server's own address (the admin command
 * uses it to talk to the running server instead). A lock whose process no longer runs on this host
 * (killed, crashed) is stale and taken over.
 */

export interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
  /** where the holding server listens (http://127.0.0.1:8080), once it does */
  url?: string;
}

/** Another live process holds the directory. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    const who =
      holder.pid === process.pid && holder.hostname === hostname()
        ? 'this process already has it open'
        : `it is in use by process ${holder.pid} on ${holder.hostname} (since ${holder.startedAt})`;
    super(
      `The embedded database in ${directory} cannot be opened: ${who}. PGlite serves one process at a ` +
        'time: stop the other process first, or use a Postgres server (DATABASE_URL) to run several. ' +
        `If no such process runs, delete ${lockPath}.`,
    );
    this.name = 'DatabaseLockedError';
  }
}

export interface DirectoryLock {
  readonly path: string;
  /** Records the address this process serves on, for other processes to find. */
  announce(url: string): void;
  /** Removes the lock if this process still holds it. */
  release(): void;
}

/** Reads a lock file; null when there is none or it cannot be read. */
export function readLock(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
    return {
      pid: parsed.pid,
      hostname: parsed.hostname,
      startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : 'unknown',
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
    };
  } catch {
    return null;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a lock's holder is gone: only decidable for a process on this host. */
function stale(holder: LockHolder | null): boolean {
  if (holder === null) return true; // unreadable: left half-written by a crash
  return holder.hostname === hostname() && holder.pid !== process.pid && !running(holder.pid);
}

/** Takes the lock on `directory` or throws DatabaseLockedError. */
export function lockDirectory(directory: string): DirectoryLock {
  const path = `${directory}.lock`;
  const mine: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };

  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(path);
      if (attempt < 3 && stale(holder)) {
        // move the stale lock aside (atomically: of two processes doing this, one wins) and try again
        try {
          renameSync(path, `${path}.stale-${process.pid}`);
          unlinkSync(`${path}.stale-${process.pid}`);
        } catch {
          // another process got there first
        }
        continue;
      }
      throw new DatabaseLockedError(
        directory,
        path,
        holder ?? { pid: 0, hostname: 'unknown', startedAt: 'unknown' },
      );
    }
  }

  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    if (readLock(path)?.pid === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  };
  // an exit without close (an uncaught error) still lets go; a SIGKILL leaves a stale lock, taken over later
  process.on('exit', release);

  return {
    path,
    announce(url) {
      if (!held) return;
      const tmp = `${path}.${process.pid}.tmp`;
      const fd = openSync(tmp, 'w', 0o644);
      try {
        writeSync(fd, JSON.stringify({ ...mine, url }));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    },
    release,
  };
}
