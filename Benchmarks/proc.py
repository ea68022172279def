"""What a process costs, read from /proc, for make bench: memory as private dirty pages with Pss
beside them (RSS counts shared code pages that stay in the page cache anyway).

- Wake-ups: voluntary + involuntary context switches summed over /proc/PID/task/*/status (the
  involuntary ones are also kept apart: on a loaded machine they are preemptions). A
  `Switches` sampler reads them every `every` seconds from a thread of the bench, so that a
  thread that ends inside the window still counts up to its last reading (only what it did after
  that reading is missed; `ended` says how many threads ended). Reading /proc wakes no one.
- CPU: utime + stime of /proc/PID/stat (every thread, ended ones included), in clock ticks, so a
  figure over a window is exact to one tick (1/CLK_TCK s) whatever its length.
- Memory: /proc/PID/smaps_rollup (Private_Dirty, Anonymous, Pss, Rss).
A process is measured with its descendants (a shell loop's `sleep`) where `tree` says so."""
import os, threading, time

TICK = os.sysconf("SC_CLK_TCK")


def children():
    kids = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree(pid):
    kids, out, todo = children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def switches(pid):
    """{"pid/tid": (voluntary, involuntary)} for every thread of pid."""
    counts = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return counts
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                s = {k: int(v) for k, v in (line.split(":", 1) for line in f) if k.endswith("ctxt_switches")}
            counts[f"{pid}/{tid}"] = (s["voluntary_ctxt_switches"], s["nonvoluntary_ctxt_switches"])
        except (OSError, KeyError):
            pass
    return counts


def thread_name(key):
    pid, tid = key.split("/")
    try:
        with open(f"/proc/{pid}/task/{tid}/comm") as f:
            return f.read().strip().replace(" ", "_") or tid
    except OSError:
        return tid


def cpu_ticks(pid):
    """(utime + stime, cutime + cstime) of pid, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def own_cpu_ticks(pid, with_tree=False):
    """utime + stime of pid, and, with_tree, of every descendant alive now."""
    total = 0
    for p in (tree(pid) if with_tree else [pid]):
        try:
            total += cpu_ticks(p)[0]
        except OSError:
            pass
    return total


def rollup(pid, with_tree=False):
    """smaps_rollup's kB fields, summed over pid's tree when with_tree."""
    total = {}
    for p in (tree(pid) if with_tree else [pid]):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    parts = line.split()
                    if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                        total[parts[0][:-1]] = total.get(parts[0][:-1], 0) + int(parts[1])
        except OSError:
            pass
    return total


def thread_count(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


class Switches:
    """Context switches of processes (and, with tree=True, their descendants) from start() to
    stop(), read every `every` seconds in a thread of this process."""

    def __init__(self, pids, tree=False, every=0.02):
        self.pids, self.with_tree, self.every = dict(pids), tree, every
        # name -> "pid/tid" -> [(voluntary, involuntary) at its first reading, at its last, its name]
        self.seen = {name: {} for name in self.pids}
        self._stop = threading.Event()

    def _read(self, first):
        for name, pid in self.pids.items():
            for p in (tree(pid) if self.with_tree else [pid]):
                for key, count in switches(p).items():
                    entry = self.seen[name].get(key)
                    if entry is None:
                        # A thread born inside the window started from 0.
                        self.seen[name][key] = entry = [count if first else (0, 0), count, thread_name(key)]
                    entry[1] = count

    def _run(self):
        while not self._stop.wait(self.every):
            self._read(False)

    def start(self):
        self._read(True)
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join()
        self._read(False)
        self.elapsed = time.monotonic() - self.started
        return self

    def count(self, name, involuntary_only=False):
        return sum(last[1] - first[1] + (0 if involuntary_only else last[0] - first[0])
                   for first, last, _ in self.seen[name].values())

    def by_thread(self, name):
        """"thread:count,..." for the threads that woke, most first."""
        counts = {}
        for first, last, thread in self.seen[name].values():
            counts[thread] = counts.get(thread, 0) + sum(last) - sum(first)
        return ",".join(f"{t}:{n}" for t, n in sorted(counts.items(), key=lambda kv: -kv[1]) if n) or "-"

    def ended(self, name):
        alive = set()
        for p in (tree(self.pids[name]) if self.with_tree else [self.pids[name]]):
            alive |= set(switches(p))
        return len(set(self.seen[name]) - alive)
